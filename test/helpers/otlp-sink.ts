import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, with the `service.name` of its resource. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

/** A loopback OTLP/HTTP receiver: what the platform's exporters sent it. */
export interface OtlpSink {
  /** `http://127.0.0.1:<port>`, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Export requests received so far (any path, any encoding). */
  exports: number;
  /** The spans received so far from `http/json` exports to /v1/traces. */
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface JsonValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface JsonAttribute {
  key: string;
  value?: JsonValue;
}
interface JsonExport {
  resourceSpans?: {
    resource?: { attributes?: JsonAttribute[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: JsonAttribute[] }[] }[];
  }[];
}

function attributesOf(list: JsonAttribute[] = []): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const { key, value } of list) attributes[key] = value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue;
  return attributes;
}

/**
 * Starts a receiver on loopback `port` (default: any free one; rejects when taken) that answers every export 200 (an empty
 * ExportTraceServiceResponse, valid in both encodings) and keeps the spans of JSON trace exports
 * (OTEL_EXPORTER_OTLP_PROTOCOL=http/json, whose ids are hex); protobuf bodies are counted, not read.
 *
 * @example
 * const sink = await startOtlpSink();
 * await startPlatform({ env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, … });
 */
export async function startOtlpSink(port = 0): Promise<OtlpSink> {
  const sink: OtlpSink = { url: '', exports: 0, spans: [], close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      sink.exports++;
      const json = (req.headers['content-type'] ?? '').includes('json');
      if (json && req.url === '/v1/traces') {
        try {
          collect(sink.spans, JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonExport);
        } catch {
          // not an export: counted, not kept
        }
      }
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sink.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return sink;
}

function collect(into: ReceivedSpan[], body: JsonExport): void {
  for (const resourceSpans of body.resourceSpans ?? []) {
    const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        into.push({
          service,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
        });
      }
    }
  }
}

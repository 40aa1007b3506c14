/**
 * Tracing (docs/adr/0092-tracing-with-opentelemetry-on-only.md): with OTEL_EXPORTER_OTLP_ENDPOINT set, one trace runs from
 * the gateway's HTTP span through each gRPC call (client and server) to the services' PostgreSQL
 * queries, the gateway's Redis commands and dms-svc's file server; a `traceparent` a client sends
 * is continued; log lines written inside a span carry its `traceId` and `spanId`. Without it, no
 * span leaves any process, no log line carries a trace id, and no OpenTelemetry SDK module is even
 * loaded (only `@opentelemetry/api`, which prom-client requires for its exemplars).
 *
 * Two platforms of this file's own on the suite's database and Redis, every process started with
 * test/helpers/module-probe.ts before the telemetry register module: one exporting to a loopback
 * receiver in this process over OTLP/HTTP with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json` (so the
 * receiver reads the spans with JSON.parse: the protobuf encoding is the exporter's default, and the
 * protocol is the exporter's business, not the platform's), the other without the variable, and a
 * receiver on 127.0.0.1:4318 (the exporter's default endpoint, where a loaded SDK would send) when
 * that port is free.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { type Platform, startPlatform } from '../scripts/lib/processes.ts';
import { adminSession, createAccount, freshTenant, unique } from './helpers/factories.ts';
import { upload } from './helpers/files.ts';
import { sql, withDb } from './helpers/db.ts';
import { without } from './helpers/env-without.ts';
import { startOtlpSink, type OtlpSink, type ReceivedSpan } from './helpers/otlp-sink.ts';
import { api, platform } from './helpers/platform.ts';
import { logLine } from './helpers/platform-log.ts';
import { uniquePrefix, untilRedisUp } from './helpers/redis.ts';
import { suiteLog } from './helpers/suite-log.ts';

const PROBE = join(import.meta.dirname, 'helpers/module-probe.ts');
const SERVER = 2;
const CLIENT = 3;

interface Traced {
  platform: Platform;
  sink: OtlpSink;
  probeDir: string;
}

let traced: Traced;
let untraced: Traced;

/** A platform of this file's own, each process started with the module probe. */
async function ownPlatform(env: Record<string, string>, sink: OtlpSink): Promise<Traced> {
  const probeDir = mkdtempSync(join(tmpdir(), 'module-probe-'));
  const own = await startPlatform({
    env: {
      ...without(
        platform.env,
        'GATEWAY_PORT',
        'CORE_GRPC_ADDR',
        'BPM_GRPC_ADDR',
        'DMS_GRPC_ADDR',
        'DMS_HTTP_ADDR',
        ...Object.keys(platform.env).filter((name) => name.startsWith('OTEL_')),
      ),
      REDIS_KEY_PREFIX: uniquePrefix('tracing'),
      MODULE_PROBE_DIR: probeDir,
      ...env,
    },
    ports: 'free',
    execArgv: ['--import', PROBE],
    log: suiteLog(),
  });
  await untilRedisUp(own);
  return { platform: own, sink, probeDir };
}

/** The default OTLP/HTTP port when free, else any. */
async function sinkOnDefaultPort(): Promise<OtlpSink> {
  try {
    return await startOtlpSink(4318);
  } catch {
    return startOtlpSink();
  }
}

test.before(async () => {
  const sink = await startOtlpSink();
  traced = await ownPlatform({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100' }, sink);
  untraced = await ownPlatform({}, await sinkOnDefaultPort());
});

test.after.always(async () => {
  await Promise.all([traced?.platform.stop(), untraced?.platform.stop()]);
  await Promise.all([traced?.sink.close(), untraced?.sink.close()]);
});

/** The spans of the trace whose gateway server span `matches`, once `complete` holds of them (10 s at most). */
async function traceOf(sink: OtlpSink, matches: (span: ReceivedSpan) => boolean, complete: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const root = sink.spans.find((span) => span.service === 'gateway' && span.kind === SERVER && matches(span));
    const spans = root ? sink.spans.filter((span) => span.traceId === root.traceId) : [];
    if ((root && complete(spans)) || Date.now() > deadline) return spans;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const mentions = (text: string) => (span: ReceivedSpan) => Object.values(span.attributes).some((value) => typeof value === 'string' && value.includes(text));
const isPg = (span: ReceivedSpan) => span.attributes['db.system'] === 'postgresql' || span.attributes['db.system.name'] === 'postgresql';
const isRedis = (span: ReceivedSpan) => span.attributes['db.system'] === 'redis' || span.attributes['db.system.name'] === 'redis';
const isGrpc = (span: ReceivedSpan) => span.attributes['rpc.system'] === 'grpc' || span.attributes['rpc.system.name'] === 'grpc';
const has = (spans: ReceivedSpan[], service: string, test: (span: ReceivedSpan) => boolean) => spans.some((span) => span.service === service && test(span));

test('one POST /api/business-partner is one trace: the gateway server span, its Redis and gRPC client spans, bpm-svc gRPC server and pg spans', async (t) => {
  const { token } = await adminSession();
  const partnerCode = unique('TRACE-');
  // this request's own user agent (a span attribute) tells its trace from the other tests' POSTs of a
  // partner, which run beside it and carry a traceparent of their own
  const userAgent = `tracing-test/${partnerCode}`;
  const res = await api('POST', '/api/business-partner', {
    token,
    baseUrl: traced.platform.url,
    headers: { 'user-agent': userAgent },
    body: { crProcessId: freshTenant(), partnerCode, partnerName: partnerCode, partnerType: 'CUSTOMER' },
  });
  t.is(res.status, 200, res.text);
  const complete = (spans: ReceivedSpan[]) =>
    has(spans, 'bpm-svc', isPg) && has(spans, 'bpm-svc', (span) => span.kind === SERVER && isGrpc(span)) && has(spans, 'gateway', isRedis);
  const spans = await traceOf(
    traced.sink,
    (span) => mentions('/api/business-partner')(span) && mentions(userAgent)(span) && span.name.startsWith('POST'),
    complete,
  );
  t.true(spans.length > 0, 'a gateway server span of the request');
  t.true(
    has(spans, 'gateway', (span) => span.kind === CLIENT && isGrpc(span) && span.name.includes('BusinessPartner')),
    'the gateway gRPC client span',
  );
  t.true(
    has(spans, 'bpm-svc', (span) => span.kind === SERVER && isGrpc(span) && span.name.includes('BusinessPartner')),
    'the bpm-svc gRPC server span',
  );
  t.true(
    has(spans, 'bpm-svc', (span) => isPg(span) && mentions('business_partner')(span)),
    'a bpm-svc pg span of its insert',
  );
  t.true(has(spans, 'gateway', isRedis), 'a gateway Redis span (the rate limiter)');
  // one trace, not spans that merely share an id: the gateway's server span started it (no parent),
  // and each hop's spans hang from it through the parents the hop before exported
  const root = spans.find((span) => span.service === 'gateway' && span.kind === SERVER && span.parentSpanId === '');
  t.truthy(root, 'the gateway server span starts the trace');
  const byId = new Map(traced.sink.spans.map((span) => [span.spanId, span]));
  /** The services from `span` up to the root of its parents (a parent never received ends the line with '?'). */
  const lineage = (span: ReceivedSpan | undefined): string[] => {
    const hops: string[] = [];
    for (let at = span; at; at = at.parentSpanId === '' ? undefined : (byId.get(at.parentSpanId) ?? { ...at, service: '?', parentSpanId: '' })) {
      hops.push(at === root ? 'root' : at.service);
    }
    return hops;
  };
  const bpmServer = spans.find((span) => span.service === 'bpm-svc' && span.kind === SERVER && isGrpc(span) && span.name.includes('BusinessPartner'));
  const insert = spans.find((span) => span.service === 'bpm-svc' && isPg(span) && mentions('business_partner')(span));
  const grpcClient = byId.get(bpmServer?.parentSpanId ?? '');
  t.like(grpcClient, { service: 'gateway', kind: CLIENT }, 'the bpm-svc server span is the child of the gateway gRPC client span');
  t.is(lineage(bpmServer).at(-1), 'root', lineage(bpmServer).join(' → '));
  t.is(lineage(insert).at(-1), 'root', lineage(insert).join(' → '));
  t.true(lineage(insert).includes('gateway') && lineage(insert)[0] === 'bpm-svc', lineage(insert).join(' → '));
  // the route template, from the express instrumentation
  t.true(has(spans, 'gateway', (span) => span.kind === SERVER && span.attributes['http.route'] === '/api/business-partner'));
});

test('a request carrying a traceparent continues that trace in every process', async (t) => {
  const { token } = await adminSession();
  const traceId = randomBytes(16).toString('hex');
  const parent = randomBytes(8).toString('hex');
  const res = await api('GET', '/api/business-partner/987654321', {
    token,
    baseUrl: traced.platform.url,
    headers: { traceparent: `00-${traceId}-${parent}-01` },
  });
  t.is(res.status, 404);
  const ofTrace = () => traced.sink.spans.filter((span) => span.traceId === traceId);
  // each process exports on its own schedule, each span once it has ended: a parent (the gateway's
  // span, bpm-svc's server span) may come in a later export than its children, so all are waited for
  const complete = (spans: ReceivedSpan[]) =>
    has(spans, 'bpm-svc', isPg) &&
    has(spans, 'bpm-svc', (span) => span.kind === SERVER && isGrpc(span)) &&
    has(spans, 'gateway', (span) => span.kind === SERVER);
  const deadline = Date.now() + 10_000;
  while (!complete(ofTrace()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const spans = ofTrace();
  const server = spans.find((span) => span.service === 'gateway' && span.kind === SERVER);
  t.is(server?.parentSpanId, parent, 'the gateway span is the child of the caller’s');
  t.true(has(spans, 'bpm-svc', (span) => span.kind === SERVER && isGrpc(span)));
  t.true(has(spans, 'bpm-svc', isPg));
});

test('an upload and a download through the gateway: gateway and dms-svc spans under one trace id each', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const fileName = `${unique('traced-')}.txt`;
  const uploaded = await upload({ token, crProcessId, content: 'traced bytes', fileName, baseUrl: traced.platform.url });
  t.is(uploaded.status, 200, uploaded.text);
  const upSpans = await traceOf(
    traced.sink,
    mentions('/api/dms-file/upload'),
    (spans) => has(spans, 'dms-svc', (span) => span.kind === SERVER) && has(spans, 'dms-svc', isPg),
  );
  t.true(
    has(upSpans, 'gateway', (span) => span.kind === CLIENT && !isGrpc(span)),
    'the gateway relay’s HTTP client span',
  );
  t.true(
    has(upSpans, 'dms-svc', (span) => span.kind === SERVER && !isGrpc(span)),
    'dms-svc file server span',
  );
  t.true(has(upSpans, 'dms-svc', isPg), 'dms-svc pg spans of the upload');

  const url: string = (await api('GET', `/api/dms-file/${uploaded.body.fileId}/download-url`, { token, baseUrl: traced.platform.url })).body.url;
  const downloaded = await api('GET', url, { baseUrl: traced.platform.url });
  t.is(downloaded.text, 'traced bytes');
  const path = url.split('?')[0] ?? url;
  const downSpans = await traceOf(traced.sink, mentions(path), (spans) => has(spans, 'dms-svc', (span) => span.kind === SERVER));
  t.true(
    has(downSpans, 'dms-svc', (span) => span.kind === SERVER && !isGrpc(span)),
    'the download relay carries the trace to dms-svc',
  );
});

test('log lines written inside a span carry its trace id: the gateway access line and a bpm-svc failure line', async (t) => {
  const { token } = await adminSession();
  const marker = `trace-${randomBytes(6).toString('hex')}`;
  const traceId = randomBytes(16).toString('hex');
  const requestId = `trace-${randomBytes(6).toString('hex')}`;
  const fn = `fail_${randomBytes(6).toString('hex')}`;
  await sql(`create function bpm.${fn}() returns trigger language plpgsql as $$
    begin if new.partner_name = '${marker}' then raise exception 'injected failure'; end if; return new; end $$`);
  await sql(`create trigger ${fn} before insert on bpm.business_partner for each row execute function bpm.${fn}()`);
  try {
    const res = await api('POST', '/api/business-partner', {
      token,
      baseUrl: traced.platform.url,
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`, 'x-request-id': requestId },
      body: { crProcessId: freshTenant(), partnerCode: marker, partnerName: marker, partnerType: 'CUSTOMER' },
    });
    t.is(res.status, 500);
  } finally {
    await withDb(async (db) => {
      await db.query(`drop trigger if exists ${fn} on bpm.business_partner`);
      await db.query(`drop function if exists bpm.${fn}()`);
    });
  }
  const failure = await logLine(requestId, (line) => line.source === 'bpm-svc' && line.entry.msg === 'unexpected failure');
  t.like(failure?.entry, { requestId, traceId });
  t.regex(String(failure?.entry.spanId), /^[0-9a-f]{16}$/);
  const access = await logLine(requestId, (line) => line.source === 'gateway' && line.entry.msg === 'request completed');
  t.like(access?.entry, { requestId, traceId });
});

test('without OTEL_EXPORTER_OTLP_ENDPOINT: no OpenTelemetry SDK module is loaded, log lines carry no trace id, and the default endpoint (when free) receives nothing', async (t) => {
  const { token } = await adminSession();
  const requestId = `untraced-${randomBytes(6).toString('hex')}`;
  const res = await api('GET', '/api/business-partner/987654321', {
    token,
    baseUrl: untraced.platform.url,
    headers: { 'x-request-id': requestId, traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01` },
  });
  t.is(res.status, 404);
  const access = await logLine(requestId, (line) => line.source === 'gateway' && line.entry.msg === 'request completed');
  t.truthy(access, 'the access line');
  t.false('traceId' in (access?.entry ?? {}));
  t.false('spanId' in (access?.entry ?? {}));
  if (new URL(untraced.sink.url).port === '4318') {
    // longer than the exporter's default batch delay (5 s) would need: nothing arrives meanwhile
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    t.is(untraced.sink.exports, 0, `no export reached ${untraced.sink.url}`);
  } else {
    // another listener holds the default port: a receiver elsewhere would hear nothing whatever the
    // processes did, so no export check is made; the module check below is the proof
    t.log(`127.0.0.1:4318 is taken (receiver at ${untraced.sink.url}): the export check is left to the module check`);
  }

  // @opentelemetry/api is not the SDK: prom-client requires it (for exemplars) in every process,
  // tracing or not; every other @opentelemetry package is the SDK's
  const sdkModules = (probe: Traced) =>
    Object.fromEntries(
      readdirSync(probe.probeDir).map((file) => [
        file.replace(/-\d+\.txt$/, ''),
        readFileSync(join(probe.probeDir, file), 'utf8')
          .split('\n')
          .filter((url) => url !== '' && !url.includes('/@opentelemetry/api/')).length,
      ]),
    );
  const off = sdkModules(untraced);
  t.deepEqual(Object.keys(off).sort(), ['bpm-svc', 'core-svc', 'dms-svc', 'gateway'], 'every process ran the probe');
  t.deepEqual(Object.values(off), [0, 0, 0, 0], `no OpenTelemetry SDK module in any untraced process: ${JSON.stringify(off)}`);
  // the probe does see them: each traced process loaded the SDK
  const on = sdkModules(traced);
  t.deepEqual(Object.keys(on).sort(), ['bpm-svc', 'core-svc', 'dms-svc', 'gateway']);
  t.true(
    Object.values(on).every((count) => count > 0),
    JSON.stringify(on),
  );
});

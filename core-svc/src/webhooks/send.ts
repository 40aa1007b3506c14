/**
 * One attempt of a delivery: a POST of the signed body, timed, with at most 1 KiB of the answer kept
 * (docs/interface.md#webhooks). Redirects are not followed: a 3xx is a failed attempt. Connections
 * are kept alive between attempts to the same endpoint.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { WebhookSettings } from '@platform/libs/config/config.ts';
import { guardedLookup } from './guarded-lookup.ts';
import { refusalOf } from './target-address.ts';

/** Bytes of an answer's body kept in the delivery log. */
export const EXCERPT_BYTES = 1024;

export interface AttemptResult {
  ok: boolean;
  statusCode?: number;
  latencyMs: number;
  excerpt?: string;
  error?: string;
}

const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 16 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 16 }) };

export function sendAttempt(url: string, body: string, headers: Record<string, string>, settings: WebhookSettings): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  return new Promise<AttemptResult>((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ ok: false, latencyMs: 0, error: 'invalid url' });
    }
    // an address in the URL is connected to without a lookup: checked here instead
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const literalRefusal = isIP(host) ? refusalOf(host, settings) : undefined;
    if (literalRefusal !== undefined) return resolve({ ok: false, latencyMs: 0, error: `target refused: ${literalRefusal}` });
    const https = target.protocol === 'https:';
    const request = (https ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        agent: https ? agents.https : agents.http,
        lookup: guardedLookup(settings),
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'platform-webhooks' },
        signal: AbortSignal.timeout(settings.timeoutMs),
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < EXCERPT_BYTES) {
            chunks.push(chunk.subarray(0, EXCERPT_BYTES - kept));
            kept += Math.min(chunk.length, EXCERPT_BYTES - kept);
          }
        });
        const done = (error?: string) => {
          const statusCode = response.statusCode ?? 0;
          const excerpt = Buffer.concat(chunks).toString('utf8');
          const ok = error === undefined && statusCode >= 200 && statusCode < 300;
          resolve({
            ok,
            statusCode,
            latencyMs: took(),
            excerpt,
            ...(ok ? {} : { error: error ?? (statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `answered ${statusCode}`) }),
          });
        };
        response.on('end', () => done());
        response.on('error', (error) => done(error.message));
      },
    );
    request.on('error', (error) => resolve({ ok: false, latencyMs: took(), error: error.message.slice(0, 1000) }));
    request.end(body);
  });
}

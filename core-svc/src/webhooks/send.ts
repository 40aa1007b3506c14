/**
 * One attempt of a delivery: a POST of the signed body, timed, with at most 1 KiB of the answer kept
 * (docs/interface.md#webhooks). Redirects are not followed: a 3xx is a failed attempt. Connections
 * are kept alive between attempts to the same endpoint, but an answer is read no further than its
 * excerpt: a longer one ends the attempt there and its connection is closed, not pooled; and the
 * whole attempt, body included, ends at the timeout (docs/adr/0082-webhook-figures-and-fairness-between.md).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { WebhookSettings } from '../config.ts';
import { guardedLookup } from './guarded-lookup.ts';
import { refusalOf } from './target-address.ts';

/** Bytes of an answer's body kept in the delivery log, and all of it that is read. */
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

    let settled = false;
    /** Ends the attempt once; `close` destroys the request and its socket, which leaves the pool. */
    const settle = (result: AttemptResult, close: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (close) request.destroy();
      resolve(result);
    };
    const request = (https ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        agent: https ? agents.https : agents.http,
        lookup: guardedLookup(settings),
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'platform-webhooks' },
      },
      (response: IncomingMessage) => {
        const statusCode = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let read = 0;
        const done = (error: string | undefined, close: boolean) => {
          const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
          const ok = error === undefined && statusCode >= 200 && statusCode < 300;
          settle(
            {
              ok,
              statusCode,
              latencyMs: took(),
              excerpt,
              ...(ok ? {} : { error: error ?? (statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `answered ${statusCode}`) }),
            },
            close,
          );
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          read += chunk.length;
          // more than the excerpt: the rest is never read, and the connection is not reused
          if (read > EXCERPT_BYTES) done(undefined, true);
        });
        response.on('end', () => done(undefined, false));
        response.on('error', (error) => done(error.message.slice(0, 1000), true));
        response.on('close', () => done('connection closed before the answer ended', true));
      },
    );
    // the whole attempt, the answer's body included, within the timeout
    const timer = setTimeout(() => settle({ ok: false, latencyMs: took(), error: `timed out after ${settings.timeoutMs} ms` }, true), settings.timeoutMs);
    request.on('error', (error) => settle({ ok: false, latencyMs: took(), error: error.message.slice(0, 1000) }, true));
    request.end(body);
  });
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { languageFromHeader } from '@platform/kit/i18n/messages.ts';
import { rawErrorAnswer } from './client-errors.ts';

/** Cancels a request's total body deadline, kept on the request by `boundBodyReceipt`. */
const CANCEL_DEADLINE = Symbol('cancelBodyDeadline');
type Tracked = IncomingMessage & { [CANCEL_DEADLINE]?: () => void };

/** How long an answered connection may take to flush its answer before it is closed regardless. */
const FLUSH_MS = 5_000;

/**
 * Bounds how long the body of every request on `server` may take to arrive: `bodyTimeoutMs` from
 * the end of its headers (docs/adr/0043-how-long-a-body-may-take.md). This is Node's `requestTimeout` for the
 * body, done per request because Node's is server-wide and would cut off a large upload over a
 * slow link however steadily it flows; `boundByIdleness` exempts the authenticated upload. (The
 * headers stay bounded by the server's `headersTimeout`.) A body still arriving at the deadline —
 * JSON read by the body parser, a body proxied to dms-svc, or one read and dropped after its
 * answer — ends the request with `timedOut`. A request without a body is not timed.
 */
export function boundBodyReceipt(server: Server, bodyTimeoutMs: number): void {
  server.on('request', (req: Tracked, res: ServerResponse) => {
    if (!hasBody(req)) return;
    const timer = setTimeout(() => timedOut(req, res), bodyTimeoutMs);
    timer.unref();
    const cancel = () => clearTimeout(timer);
    req.once('end', cancel);
    req.once('close', cancel);
    req[CANCEL_DEADLINE] = cancel;
    res.once('finish', () => readOffTheRest(req));
  });
}

/**
 * A body its answer has overtaken, the rest read and dropped, as node:http does for a body no handler
 * read: node:http leaves alone one a handler began to read, and the proxy to dms-svc stops reading
 * the body when dms-svc's connection fails or dms-svc answers first (relay/dms-proxy.ts: unpiped and
 * paused). Left so, the connection, kept alive, reads nothing more: the client's next request on it
 * is never read nor answered, nor is its going away seen. The rest stays bounded by the body's
 * deadline above (by the connection's keep-alive timeout once an upload's answer is out).
 */
function readOffTheRest(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  req.unpipe();
  req.removeAllListeners('data');
  req.resume();
}

/**
 * For the upload route, once its caller's session is found live (app.ts): its body is bounded by
 * inactivity instead of total time. No byte for `idleMs` (the socket's own idle timer) ends the
 * request with `timedOut`. Once the body has arrived, the wait for dms-svc's answer is not timed
 * here, as for every proxied request.
 */
export function boundByIdleness(req: Tracked, res: ServerResponse, idleMs: number): void {
  req[CANCEL_DEADLINE]?.();
  if (req.complete) return;
  const onIdle = () => timedOut(req, res);
  req.setTimeout(idleMs, onIdle);
  req.once('end', () => {
    req.socket.setTimeout(0);
    req.off('timeout', onIdle);
  });
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * 408 SVC-SYS-2001, then the connection closed; when an answer has already begun, only the close.
 * The answer is written on the socket itself, never through the response object: the response
 * stays unfinished, so closing the connection aborts the request as a client that went away does —
 * the body parser stops, and the proxy cuts dms-svc's request (an upload cut off leaves no file
 * and no row). A finished response would leave both waiting for a body that never comes.
 */
function timedOut(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  const socket = req.socket;
  if (res.headersSent || !socket.writable) {
    socket.destroy();
    return;
  }
  // the access line reports what the client got
  res.statusCode = 408;
  const kept = Object.fromEntries(
    Object.entries(res.getHeaders()).flatMap(([name, value]) =>
      /^(access-control-|vary$|x-request-id$)/.test(name) && value !== undefined ? [[name, Array.isArray(value) ? value.join(', ') : String(value)]] : [],
    ),
  );
  const lang = languageFromHeader(req.headers['accept-language']) ?? 'en';
  socket.end(rawErrorAnswer(408, 'Request Timeout', lang, new DomainError('SVC-SYS-2001', 'request.timeout'), kept));
  const close = setTimeout(() => socket.destroy(), FLUSH_MS);
  close.unref();
  socket.once('finish', () => {
    clearTimeout(close);
    socket.destroy();
  });
}

import { connect } from 'node:net';
import type { Request, Response } from 'express';
import { FILE_PORT_CREDENTIAL_HEADER, type FilePortCredential } from '@platform/kit/auth/file-port-credential.ts';
import { portOf } from '@platform/kit/config/env.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { BufferRing } from '@platform/kit/io/buffer-ring.ts';
import { traceHeaders } from '@platform/kit/telemetry/trace-bridge.ts';
import { clientIp, requestIdOf } from '../http/context.ts';
import type { Forward } from './forward.ts';
import { BadUpstreamResponse, ResponseHeadReader, type ResponseHead } from './response-head.ts';

/** Bytes per socket read, and reads on their way to the client: a download holds at most 2 MiB here. */
const CHUNK_BYTES = 512 * 1024;
const CHUNKS_IN_FLIGHT = 4;

/** Request fields not handed on: hop-by-hop ones (RFC 9110 §7.6.1), a body's framing (a GET sends none), and those written here. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'content-length',
  'host',
  'x-forwarded-for',
  'x-request-id',
  FILE_PORT_CREDENTIAL_HEADER,
]);
/** Response fields not handed to the client: hop-by-hop ones. */
const NOT_RETURNED = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade']);

/**
 * The relay for GET and HEAD of file bytes (downloads, public share links) to dms-svc's HTTP server
 * at `httpAddr`. A connection per request (`Connection: close`), the request head written as the
 * client sent it minus hop-by-hop fields, with the one client address this gateway proved as
 * X-Forwarded-For (docs/adr/0034-client-address-of-byte-requests.md), the request's id as
 * X-Request-Id, and the gateway's credential, which dms-svc's file port asks of every request (one
 * a client sent is dropped with the hop-by-hop fields).
 *
 * The answer is read with the socket's `onread` into a ring of reusable buffers
 * (libs/kit/src/io/buffer-ring.ts), each written to the client as read and reused once the client's
 * socket has taken it; reading pauses while every buffer is on its way, so the client's pace sets
 * dms-svc's. node:http's client would allocate two buffers per 64 KiB read (the socket's and the
 * parser's copy of the body), whose memory V8 reclaims only by full-heap GCs every few dozen MiB:
 * in bench/file-transfer.ts that path cost the gateway about twice the CPU per GiB and 60-100 MiB of
 * RSS. The head is read strictly (response-head.ts); the body is framed by Content-Length, or by the
 * connection's end when there is none. Anything else, or no answer, is 503 SVC-SYS-5002 while
 * nothing was sent, else the client's response is cut off (so a short body is never taken as whole).
 */
export function downloadRelay(httpAddr: string, credential: FilePortCredential): Forward {
  const host = httpAddr.slice(0, httpAddr.lastIndexOf(':')).replace(/^\[(.*)\]$/, '$1');
  const port = portOf(httpAddr);
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      res.once('finish', resolve);
      res.once('close', resolve);
      relay(req, res, host, port, httpAddr, credential, reject);
    });
}

/**
 * Relays one request; `refuse` takes the failure while nothing was sent, for the gateway's error
 * handler to answer (http/errors.ts: the error body with a refId, and the exception log's entry
 * under it, as for every 5xx).
 */
function relay(
  req: Request,
  res: Response,
  host: string,
  port: number,
  httpAddr: string,
  credential: FilePortCredential,
  refuse: (error: DomainError) => void,
): void {
  const ring = new BufferRing(CHUNKS_IN_FLIGHT, CHUNK_BYTES);
  const reader = new ResponseHeadReader();
  // the buffer the socket reads into next: never one whose bytes are still on their way to the client
  let current: Buffer | undefined;
  let headSeen = false;
  // body bytes still to come; -1: until the connection ends
  let remaining = -1;
  let paused = false;
  let settled = false;

  const nextBuffer = (): Buffer => {
    // reading pauses before the last free buffer is taken (onData), so the ring always has one here;
    // were it ever empty, a buffer of its own beats reading into one whose bytes are still unsent
    current ??= ring.take() ?? Buffer.allocUnsafeSlow(ring.size);
    return current;
  };
  const complete = (): void => {
    if (settled) return;
    settled = true;
    res.end();
    upstream.destroy();
  };
  const fail = (): void => {
    if (settled) return;
    settled = true;
    upstream.destroy();
    if (res.headersSent) res.destroy();
    else refuse(new DomainError('SVC-SYS-5002', 'service.unavailable'));
  };
  const give = (buffer: Buffer): void => {
    ring.give(buffer);
    if (paused && !settled) {
      paused = false;
      upstream.resume();
    }
  };
  const startResponse = (head: ResponseHead): void => {
    if (head.status < 200) throw new BadUpstreamResponse('interim response');
    const headers: Record<string, string | string[]> = {};
    let length: number | undefined;
    for (const [name, value] of head.headers) {
      if (name === 'transfer-encoding') throw new BadUpstreamResponse('transfer-encoding');
      if (name === 'content-length') {
        if (!/^\d{1,15}$/.test(value) || (length !== undefined && length !== Number(value))) throw new BadUpstreamResponse('bad content-length');
        length = Number(value);
      }
      if (NOT_RETURNED.has(name)) continue;
      const had = headers[name];
      headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    }
    remaining = req.method === 'HEAD' || head.status === 204 || head.status === 304 ? 0 : (length ?? -1);
    res.writeHead(head.status, headers);
  };
  const onData = (length: number, buffer: Buffer): boolean => {
    if (settled) return false;
    let body = buffer.subarray(0, length);
    if (!headSeen) {
      let read: ReturnType<ResponseHeadReader['push']>;
      try {
        read = reader.push(body);
        if (!read) return true;
        startResponse(read.head);
      } catch {
        fail();
        return false;
      }
      headSeen = true;
      body = body.subarray(read.bodyStart);
    }
    // bytes past the announced length are not the client's (the connection ends here anyway)
    if (remaining >= 0 && body.length > remaining) body = body.subarray(0, remaining);
    if (body.length > 0) {
      if (remaining > 0) remaining -= body.length;
      current = undefined;
      res.write(body, () => give(buffer));
    }
    if (remaining === 0) {
      complete();
      return false;
    }
    // every buffer but the one the socket reads into next is on its way: wait for one to come back
    if (ring.free <= 1 && current === undefined) {
      paused = true;
      return false;
    }
    return true;
  };

  const upstream = connect({ host, port, onread: { buffer: nextBuffer, callback: onData } });
  upstream.on('error', fail);
  upstream.on('end', () => {
    if (!headSeen || remaining > 0) fail();
    else complete();
  });
  // the client went away: so does the request to dms-svc
  res.once('close', () => {
    if (!res.writableFinished) {
      settled = true;
      upstream.destroy();
    }
  });

  const lines = [
    `${req.method} ${req.originalUrl} HTTP/1.1`,
    `host: ${httpAddr}`,
    'connection: close',
    `x-forwarded-for: ${clientIp(req)}`,
    // the id this gateway gave the request (the client's only when well-formed), for dms-svc's log lines
    `x-request-id: ${requestIdOf(req)}`,
    `${FILE_PORT_CREDENTIAL_HEADER}: ${credential.value}`,
  ];
  // with tracing on, this request's span context (the head is written here, out of the HTTP
  // instrumentation's reach), in place of any trace context the client sent
  const trace = traceHeaders();
  for (const [name, value] of Object.entries(trace)) lines.push(`${name}: ${value}`);
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] ?? '';
    const lower = name.toLowerCase();
    if (!NOT_FORWARDED.has(lower) && !(lower in trace)) lines.push(`${name}: ${req.rawHeaders[i + 1] ?? ''}`);
  }
  upstream.write(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

import { randomUUID } from 'node:crypto';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { Language } from '@platform/kit/i18n/messages.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import { errorBody } from './errors.ts';

/** What Node's HTTP parser refused, as a status and the error of docs/interface.md#errors. */
function refusalOf(code: string | undefined): { status: number; reason: string; error: DomainError } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'Request Header Fields Too Large', error: new DomainError('SVC-SYS-2001', 'headers.tooLarge') };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, reason: 'Payload Too Large', error: new DomainError('SVC-SYS-3001', 'body.tooLarge', { limit: '16384' }) };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', error: new DomainError('SVC-SYS-2001', 'request.timeout') };
    default:
      return { status: 400, reason: 'Bad Request', error: new DomainError('SVC-SYS-2001', 'request.malformed') };
  }
}

/**
 * An error answer written straight on a connection (status line, headers, the error body of
 * docs/interface.md#errors), which it then closes: for a request whose response object cannot or must not
 * carry it. `headers` go out too (a response's CORS headers).
 */
export function rawErrorAnswer(status: number, reason: string, lang: Language, error: DomainError, headers: Record<string, string> = {}): string {
  const body = JSON.stringify(errorBody(lang, error));
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Cache-Control: no-store\r\n' +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Answers what Node's HTTP parser refuses before express sees a request (headers over the limit,
 * a request line or header that is not HTTP, a request that took too long) with the JSON error
 * body rather than Node's empty one: 431 SVC-SYS-2001 for headers too large, 408 SVC-SYS-2001 for
 * a timeout, 400 SVC-SYS-2001 for the rest (docs/adr/0023-x-project-code-and-requests-node.md). In English: the Accept-Language
 * header is among what could not be read. The connection is closed, as Node would. The answer
 * carries a new X-Request-Id (the client's could not be read either), logged with the refusal.
 *
 * An answer is written only when no response on the connection has begun (a body that breaks off
 * midway is refused while its request is still being handled); one that has begun would be
 * corrupted, so then the connection is only closed.
 */
export function answerClientErrors(server: Server, log: Logger): void {
  const open = new WeakMap<Socket, Set<ServerResponse>>();
  const answered = new WeakSet<Socket>();
  server.on('request', (req, res) => {
    const responses = open.get(req.socket) ?? new Set();
    open.set(req.socket, responses.add(res));
    res.once('close', () => responses.delete(res));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // the parser reports again on every chunk that follows its error: answer once
    if (answered.has(socket)) return;
    answered.add(socket);
    const begun = [...(open.get(socket) ?? [])].some((res) => res.headersSent);
    if (error.code === 'ECONNRESET' || !socket.writable || begun) {
      socket.destroy();
      return;
    }
    const { status, reason, error: domain } = refusalOf(error.code);
    const requestId = randomUUID();
    log.info({ requestId, status, code: error.code }, 'request refused by the HTTP parser');
    socket.end(rawErrorAnswer(status, reason, 'en', domain, { 'X-Request-Id': requestId }));
    // Closing with unread bytes would reset the connection, and the client could lose the answer:
    // what it still sends is read and dropped until it closes, for a few seconds at most.
    socket.resume();
    socket.setTimeout(5_000, () => socket.destroy());
  });
}

import { connect, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { ClamdAddress } from '@platform/kit/config/clamd.ts';
import { clamdAddressText } from '@platform/kit/config/clamd.ts';

/** clamd's verdict on a stream it read to its end. */
export type ClamdVerdict = { infected: false } | { infected: true; signature: string };

/** Why clamd gave no verdict. `too-large`: the stream is longer than clamd's StreamMaxLength. */
export type ClamdFailureReason = 'unreachable' | 'timeout' | 'too-large' | 'error';

/** clamd gave no verdict: unreachable, too slow, the stream over its StreamMaxLength, or an answer that is not one. */
export class ClamdFailure extends Error {
  override name = 'ClamdFailure';
  readonly reason: ClamdFailureReason;

  constructor(reason: ClamdFailureReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/** The longest answer clamd gives to INSTREAM (`stream: <signature> FOUND`); more is not clamd. */
const MAX_REPLY = 4096;
const SIZE_LIMIT = 'INSTREAM size limit exceeded';

/**
 * Streams `source` to clamd with the INSTREAM command (clamd(8): `zINSTREAM\0`, then chunks each
 * behind its length as 4 bytes big-endian, then a zero length) and reads its one answer:
 * `stream: OK`, `stream: <signature> FOUND`, or an error. Nothing is held beyond the chunk in
 * flight: the socket's backpressure paces the reading of `source`. clamd answers as soon as the
 * stream passes its StreamMaxLength and closes; that answer is the verdict (a ClamdFailure
 * `too-large`), not the write that then fails, and so is a connection clamd closes before the
 * stream's end was sent. The whole exchange, connection included, must end
 * within `timeoutMs`, else the socket is destroyed and the scan is a ClamdFailure `timeout`.
 *
 * @example
 * const verdict = await clamdScan({ kind: 'tcp', host: '127.0.0.1', port: 3310 }, createReadStream(path), 60_000);
 * if (verdict.infected) console.log(verdict.signature); // 'Win.Test.EICAR_HDB-1'
 */
export function clamdScan(address: ClamdAddress, source: Readable, timeoutMs: number): Promise<ClamdVerdict> {
  const where = clamdAddressText(address);
  return new Promise<ClamdVerdict>((resolve, reject) => {
    let connected = false;
    let settled = false;
    const sent = { done: false };
    let reply = Buffer.alloc(0);
    const socket: Socket = address.kind === 'unix' ? connect({ path: address.path }) : connect({ host: address.host, port: address.port });
    const finish = (outcome: { verdict: ClamdVerdict } | { failure: ClamdFailure }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      source.destroy();
      if ('verdict' in outcome) resolve(outcome.verdict);
      else reject(outcome.failure);
    };
    const timer = setTimeout(() => finish({ failure: new ClamdFailure('timeout', `clamd at ${where} gave no answer within ${timeoutMs} ms`) }), timeoutMs);
    // the answer ends with NUL (the z-prefixed command); a clamd that closes first has said all it will
    const answered = () => {
      const end = reply.indexOf(0);
      const text = reply
        .subarray(0, end === -1 ? reply.length : end)
        .toString('utf8')
        .trim();
      finish(verdictOf(text, where));
    };
    socket.on('data', (chunk: Buffer) => {
      reply = Buffer.concat([reply, chunk]);
      if (reply.includes(0)) answered();
      else if (reply.length > MAX_REPLY) finish({ failure: new ClamdFailure('error', `clamd at ${where} answered more than ${MAX_REPLY} bytes`) });
    });
    // clamd closing before it read the whole stream is its StreamMaxLength refusal whose answer was
    // lost: it answers and closes with the rest unread, which resets the connection (ECONNRESET) or
    // fails the next write (EPIPE), and either may come before the answer is read (seen on both
    // sockets). Taken as too large, never as a pass. A clamd that stops after reading everything
    // closes cleanly (no reset): that is an error (503), and so is one that closes with no error.
    const closedEarly = (error?: Error) => {
      if (reply.length > 0) return answered();
      if (!connected) return finish({ failure: new ClamdFailure('unreachable', `clamd at ${where}: ${error?.message ?? 'closed'}`, { cause: error }) });
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      if (!sent.done || code === 'EPIPE' || code === 'ECONNRESET') {
        return finish({
          failure: new ClamdFailure(
            'too-large',
            `clamd at ${where} closed the connection before reading the whole upload${code ? ` (${code})` : ''}: its StreamMaxLength is below the upload, or it stopped`,
            { cause: error },
          ),
        });
      }
      finish({ failure: new ClamdFailure('error', `clamd at ${where} closed without an answer${error ? `: ${error.message}` : ''}`, { cause: error }) });
    };
    socket.on('end', () => closedEarly());
    socket.on('error', (error) => closedEarly(error));
    socket.on('close', () => closedEarly());
    source.on('error', (error) => finish({ failure: new ClamdFailure('error', `reading the upload for clamd: ${error.message}`, { cause: error }) }));
    socket.once('connect', () => {
      connected = true;
      void send(socket, source, sent).catch(() => undefined);
    });
  });
}

/** Writes the command, the chunks behind their lengths, and the closing zero length, waiting for the socket to drain. */
async function send(socket: Socket, source: Readable, sent: { done: boolean }): Promise<void> {
  socket.write('zINSTREAM\0');
  for await (const chunk of source as AsyncIterable<Buffer>) {
    if (socket.destroyed || !socket.writable) return;
    const length = Buffer.alloc(4);
    length.writeUInt32BE(chunk.length);
    socket.cork();
    socket.write(length);
    const more = socket.write(chunk);
    socket.uncork();
    if (!more) await drainedOrClosed(socket);
  }
  if (!socket.destroyed && socket.writable) socket.write(Buffer.alloc(4), () => (sent.done = true));
}

/** Until the socket takes more, or closes; either listener leaves with the other (a stream of many chunks waits many times). */
function drainedOrClosed(socket: Socket): Promise<void> {
  return new Promise<void>((resume) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resume();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

function verdictOf(text: string, where: string): { verdict: ClamdVerdict } | { failure: ClamdFailure } {
  if (text === 'stream: OK') return { verdict: { infected: false } };
  const found = /^stream: (.+) FOUND$/.exec(text);
  if (found?.[1]) return { verdict: { infected: true, signature: found[1] } };
  if (text.startsWith(SIZE_LIMIT)) return { failure: new ClamdFailure('too-large', `clamd at ${where}: ${text} (its StreamMaxLength is below the upload)`) };
  return { failure: new ClamdFailure('error', `clamd at ${where} answered ${JSON.stringify(text.slice(0, 200))}`) };
}

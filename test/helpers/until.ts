/**
 * Waiting for a server a test started: polling a check until it holds, and whether a port accepts
 * connections. One place for the helpers that start servers of their own (redis-sentinel.ts,
 * swift.ts).
 */
import { connect } from 'node:net';

/**
 * Polls `check` every `intervalMs` until it resolves true (a rejection counts as not yet, and is
 * kept for the message). Throws `<what> within <timeoutMs> ms` once the time is up, or at once with
 * what `giveUp` says when it says something (the server exited, say).
 */
export async function until(
  what: string,
  timeoutMs: number,
  check: () => Promise<boolean>,
  options: { intervalMs?: number; giveUp?: () => string | undefined } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const reason = options.giveUp?.();
    if (reason !== undefined) throw new Error(`${what}: ${reason}`);
    const held = await check().catch((error: unknown) => {
      lastError = error;
      return false;
    });
    if (held) return;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms${lastError === undefined ? '' : `: ${String(lastError)}`}`);
    await new Promise((wait) => setTimeout(wait, options.intervalMs ?? 100));
  }
}

/** Whether something accepts a connection on `port` of 127.0.0.1. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.on('error', () => done(false));
  });
}

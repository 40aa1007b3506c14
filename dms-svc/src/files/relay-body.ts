import type { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { BufferRing } from '@platform/kit/io/buffer-ring.ts';

/** Bytes per write to the client, and writes in flight: a download holds at most 2 MiB here, as from the folder (write-file-range.ts). */
const CHUNK_BYTES = 512 * 1024;
const CHUNKS_IN_FLIGHT = 4;

/**
 * Writes the `length` bytes `source` delivers (an S3 object's ranged GET, s3-storage.ts) as the body
 * of `res`, then ends it. node:http's client hands the body over in chunks of a socket read (at
 * most 64 KiB, often less), and writing each to the client as it came cost a socket write and the
 * stream machinery of a Transform and a pipeline per chunk: in bench/file-storage-s3.ts dms-svc
 * spent several times the CPU per GiB of a download from the folder. Here the chunks are copied
 * into a ring of reusable 512 KiB buffers (libs/kit/src/io/buffer-ring.ts) and each full buffer is
 * one write, given back once the socket has taken it; the source is paused while every buffer is on
 * its way, so the client's pace is the store's.
 *
 * A body longer or shorter than `length` (the object changed, the store broke off) fails, and so
 * does a client that goes away or a source that errs: the response is then destroyed, never ended,
 * so a short body is not taken as whole, and the source destroyed. Resolves once the whole response
 * is written.
 */
export function relayBody(source: Readable, res: ServerResponse, length: number, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const ring = new BufferRing(CHUNKS_IN_FLIGHT, CHUNK_BYTES);
    let current: Buffer | undefined;
    let filled = 0;
    let received = 0;
    let settled = false;

    const listeners: [EventEmitter, string, ((chunk: Buffer) => void) | ((error: Error) => void)][] = [
      [source, 'data', onData],
      [source, 'end', onEnd],
      [source, 'error', fail],
      [source, 'close', onSourceClose],
      [res, 'close', onResClose],
      [res, 'finish', onFinish],
    ];
    const detach = () => {
      for (const [emitter, event, listener] of listeners) emitter.off(event, listener);
    };
    function fail(error: Error): void {
      if (settled) return;
      settled = true;
      detach();
      source.destroy();
      res.destroy(error);
      reject(error);
    }
    const writeCurrent = () => {
      const buffer = current;
      if (!buffer) return;
      const bytes = filled;
      current = undefined;
      filled = 0;
      res.write(buffer.subarray(0, bytes), () => ring.give(buffer));
    };
    /** Copies `chunk` from `at` into the ring; when no buffer is free, pauses the source until the rest is copied. */
    const copyIn = (chunk: Buffer, at: number): boolean => {
      while (at < chunk.length) {
        current ??= ring.take();
        if (!current) {
          source.pause();
          void ring.available().then(() => {
            if (!settled && copyIn(chunk, at)) source.resume();
          });
          return false;
        }
        const copied = chunk.copy(current, filled, at);
        filled += copied;
        at += copied;
        if (filled === current.length) writeCurrent();
      }
      return true;
    };
    function onData(chunk: Buffer): void {
      received += chunk.length;
      if (received > length) return fail(new Error(`${what}: the object is longer than its range of ${length} bytes`));
      copyIn(chunk, 0);
    }
    function onEnd(): void {
      if (received !== length) return fail(new Error(`${what} ended after ${received} of ${length} bytes`));
      if (filled > 0) writeCurrent();
      res.end();
    }
    function onSourceClose(): void {
      if (!source.readableEnded) fail(new Error(`${what}: the store closed the body after ${received} of ${length} bytes`));
    }
    function onResClose(): void {
      if (!res.writableFinished) fail(new Error(`${what}: the client went away after ${received} of ${length} bytes`));
    }
    function onFinish(): void {
      if (settled) return;
      settled = true;
      detach();
      resolve();
    }
    for (const [emitter, event, listener] of listeners) emitter.on(event, listener);
  });
}

import { open } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { finished } from 'node:stream/promises';
import { BufferRing } from '@platform/kit/io/buffer-ring.ts';

/** Bytes per read, and reads in flight: a download holds at most 2 MiB of the file in memory (larger reads cost fewer
 * system calls per GiB; bench/file-transfer.ts measured 256 KiB to 2 MiB). */
const CHUNK_BYTES = 512 * 1024;
const CHUNKS_IN_FLIGHT = 4;

/**
 * Writes bytes `start` to `end` (inclusive) of the file at `path` as the body of `res`, then ends
 * it. The reads go into a ring of reusable buffers (libs/kit/src/io/buffer-ring.ts), each given back
 * when the socket has taken its bytes: no allocation per chunk, so a long download causes no major
 * GCs and no growth in RSS, and the client's pace is the disk's. Resolves once the whole response is
 * written; rejects when it was cut off (the client went away) or the file could not be read.
 */
export async function writeFileRange(res: ServerResponse, path: string, start: number, end: number): Promise<void> {
  const written = finished(res);
  written.catch(() => undefined);
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  const ring = new BufferRing(CHUNKS_IN_FLIGHT, CHUNK_BYTES);
  const file = await open(path, 'r');
  try {
    let position = start;
    while (position <= end && !res.destroyed) {
      const buffer = ring.take();
      if (!buffer) {
        // every buffer is still on its way to the socket; a client that went away never gives them back
        await Promise.race([ring.available(), closed]);
        continue;
      }
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, end - position + 1), position);
      if (bytesRead === 0) throw new Error(`${path} ended at byte ${position}, before ${end + 1}`);
      position += bytesRead;
      res.write(buffer.subarray(0, bytesRead), () => ring.give(buffer));
    }
    if (!res.destroyed) res.end();
  } finally {
    await file.close();
  }
  await written;
}

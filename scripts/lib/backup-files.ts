/**
 * Whole-file copies for backup and restore: a file is copied under a temporary name in the target
 * folder, hashed on the way, flushed to the disk, and only then renamed to its name, so a reader of
 * the target (or a crash) never meets a partial file under the final name.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What was copied or read: its byte count and SHA-256 (hex). */
export interface FileDigest {
  size: number;
  sha256: string;
}

/**
 * Copies `source` (a path, or a stream of an object's bytes) to `target` through `temporary` (same folder as `target`): bytes, fdatasync,
 * rename, then fsync of the folder. The temporary is removed when anything fails; `target` then
 * holds what it held before (nothing, or an earlier whole file).
 */
export async function copyWhole(source: string | Readable, target: string, temporary: string, targetDir: string): Promise<FileDigest> {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(typeof source === 'string' ? createReadStream(source) : source, tap, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
    await synced(temporary, false);
    await rename(temporary, target);
    await synced(targetDir, true);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  return { size, sha256: hash.digest('hex') };
}

/** The size and SHA-256 of a file as it is on the disk now. */
export function digestOf(path: string): Promise<FileDigest> {
  return digestOfStream(createReadStream(path));
}

/** The size and SHA-256 of a stream's bytes (an object's, read back from its bucket). */
export async function digestOfStream(source: Readable): Promise<FileDigest> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** Waits until a file's bytes (fdatasync) or a folder's entries (fsync) are on the disk. */
export async function synced(path: string, folder: boolean): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await (folder ? handle.sync() : handle.datasync());
  } finally {
    await handle.close();
  }
}

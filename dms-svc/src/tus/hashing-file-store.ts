import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, unlink } from 'node:fs/promises';
import { Transform, pipeline, type Readable } from 'node:stream';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { ERRORS, Upload } from '@tus/utils';
import type { FileStorage, StagedUpload } from '../files/storage.ts';
import { FILE_ID } from './tus-metadata.ts';
import { UPLOAD_ID } from './tus-protocol.ts';
import type { TusStore } from './tus-store.ts';

/** The SHA-256 of an upload's first `offset` bytes, while it is known. */
interface HashState {
  offset: number;
  hash: Hash;
}

/**
 * @tus/file-store's FileStore that also computes each upload's SHA-256 as its bytes arrive
 * (docs/adr/0103-resumable-uploads-creation-owner.md). The hash state of an upload is kept in memory
 * while its offset is the file's: a PATCH that resumes where the last one in this process ended
 * goes on hashing from there. One that finds no state, or a state at another offset (the upload was
 * written by another replica, or before a restart), hashes the stored prefix again first, read from
 * the file. A write that ends with fewer bytes on the disk than were hashed (an aborted request)
 * drops the state, so a state never runs ahead of the file. A completed upload (its record names
 * its dms-file) is read from its record alone: its bytes are the stored file's now.
 */
export class HashingFileStore extends FileStore implements TusStore {
  readonly #hashes = new Map<string, HashState>();
  /** How many times a prefix was hashed again from the disk, and how many bytes (for the tests and logs). */
  readonly rehashed = { times: 0, bytes: 0 };

  readonly #sources = new Map<string, Readable>();

  /** The storage a completed upload's file is adopted into (storage.adopt: the local store renames it). */
  storage?: FileStorage;

  /**
   * Called after each write that stored bytes, with the offsets before and after it, while the
   * upload's lock is still held; a rejection fails the write (the tus handler's early type check).
   */
  afterWrite?: (id: string, from: number, to: number) => Promise<void>;

  /**
   * The request an upload's next write reads from directly, instead of the stream tus hands over
   * (which reaches it through a web stream and back: about 40 % more CPU per byte in this process,
   * bench/tus-upload.ts). tus is then given a request without a body (tus-adapter.ts), so the limit
   * it would apply to the stream is applied here: no byte beyond the upload's length.
   */
  readFrom(id: string, source: Readable): void {
    this.#sources.set(id, source);
  }

  /** Forgets the request `readFrom` registered for an upload, if it is still `source` (tus refused before writing). */
  unread(id: string, source: Readable): void {
    if (this.#sources.get(id) === source) this.#sources.delete(id);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const direct = this.#sources.get(id);
    this.#sources.delete(id);
    const state = await this.#stateAt(id, offset);
    const size = direct ? (await this.configstore.get(id))?.size : undefined;
    let hashed = offset;
    let beyondLength = false;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (size !== undefined && hashed + chunk.length > size) {
          beyondLength = true;
          return done(new Error('bytes beyond Upload-Length'));
        }
        state.hash.update(chunk);
        hashed += chunk.length;
        done(null, chunk);
      },
    });
    const stopReading = direct ? readWithoutDestroying(direct, tap) : (pipeline(readable, tap, () => undefined), () => undefined);
    this.#hashes.delete(id);
    // FileStore reports any failure as its FILE_WRITE_ERROR (500); bytes beyond the length are the client's (413)
    const written = await super
      .write(tap, id, offset)
      .catch((error: unknown) => {
        throw beyondLength ? ERRORS.ERR_SIZE_EXCEEDED : error;
      })
      .finally(stopReading);
    if (written === hashed) this.#hashes.set(id, { offset: written, hash: state.hash });
    if (written > offset) await this.afterWrite?.(id, offset, written);
    return written;
  }

  /** An upload; a completed one (already a dms-file, its bytes moved) from its record alone, at its full length. */
  override async getUpload(id: string): Promise<Upload> {
    const info = await this.configstore.get(id);
    if (info?.metadata?.[FILE_ID] === undefined) return super.getUpload(id);
    const size = info.size ?? info.offset;
    return new Upload({ id, size, offset: size, metadata: info.metadata, ...(info.creation_date ? { creation_date: info.creation_date } : {}) });
  }

  /** The SHA-256 of a whole upload of `size` bytes: from memory when its state is at its end, else read from the file. */
  async checksumOf(id: string, size: number): Promise<string> {
    const state = await this.#stateAt(id, size);
    this.#hashes.delete(id);
    return state.hash.digest('hex');
  }

  info(id: string): Promise<Upload | undefined> {
    return this.configstore.get(id);
  }

  keepInfo(upload: Upload): Promise<void> {
    return this.configstore.set(upload.id, upload);
  }

  async dropInfo(id: string): Promise<void> {
    await this.configstore.delete(id).catch(() => undefined);
  }

  /** The first `bytes` bytes of the upload's file. */
  async head(id: string, bytes: number): Promise<Buffer> {
    const handle = await open(join(this.directory, id), 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** The upload's file adopted by the storage (moved into the folder, or copied into the bucket). */
  staged(id: string): StagedUpload {
    if (!this.storage) throw new Error('the store of the resumable uploads has no storage to adopt into');
    return this.storage.adopt(join(this.directory, id));
  }

  /** The uploads' ids, from their records' names (`<id>.json`). */
  async *ids(): AsyncIterable<string> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return;
    }
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : undefined;
      if (id && UPLOAD_ID.test(id)) yield id;
    }
  }

  /** Forgets an upload's state (it completed, was terminated or expired). */
  forget(id: string): void {
    this.#hashes.delete(id);
  }

  /** Removes whatever is left of an upload: its hash state, its bytes and its record (what is gone already is skipped). */
  async discard(id: string): Promise<void> {
    this.forget(id);
    await unlink(join(this.directory, id)).catch(() => undefined);
    await this.configstore.delete(id).catch(() => undefined);
  }

  async #stateAt(id: string, offset: number): Promise<HashState> {
    const known = this.#hashes.get(id);
    if (known?.offset === offset) return known;
    const hash = createHash('sha256');
    if (offset > 0) {
      for await (const chunk of createReadStream(join(this.directory, id), { start: 0, end: offset - 1, highWaterMark: 1024 * 1024 }))
        hash.update(chunk as Buffer);
      this.rehashed.times++;
      this.rehashed.bytes += offset;
    }
    return { offset, hash };
  }
}

/**
 * Pipes the request into the tap so that neither side's failure destroys the request: its errors
 * fail the tap (and so the write), and a tap that fails (bytes beyond Upload-Length) is unpiped and
 * the rest of the request read and dropped. A destroyed request would take its socket with it and
 * the refusal (413) could not be answered; @tus/server's own writeToStore keeps the request alive
 * for the same reason. Returns what undoes the listeners once the write is over.
 */
export function readWithoutDestroying(request: Readable, tap: Transform): () => void {
  // its client went away before this write began (while tus waited for the upload's lock): nothing is left to read
  if (request.destroyed) {
    tap.destroy(new Error('the request was closed before its bytes were read'));
    return () => undefined;
  }
  const failTap = (error: Error) => tap.destroy(error);
  const drain = () => {
    request.unpipe(tap);
    request.resume();
  };
  request.on('error', failTap);
  tap.once('error', drain);
  request.pipe(tap);
  return () => {
    request.off('error', failTap);
    tap.off('error', drain);
  };
}

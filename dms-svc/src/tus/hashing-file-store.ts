import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, unlink } from 'node:fs/promises';
import type { Readable, Transform } from 'node:stream';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { Upload } from '@tus/utils';
import type { FileStorage, StagedUpload } from '../files/storage.ts';
import { FILE_ID } from './tus-metadata.ts';
import { UPLOAD_ID } from './tus-protocol.ts';
import type { TusStore } from './tus-store.ts';
import { hashingTap, readRequestInto, UploadHashes, writeThroughTap, type HashState } from './upload-hashing.ts';

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
  readonly #hashes = new UploadHashes();
  /** How many times a prefix was hashed again from the disk, and how many bytes (for the tests and logs). */
  readonly rehashed = this.#hashes.rehashed;

  /** The storage a completed upload's file is adopted into (storage.adopt: the local store renames it). */
  storage?: FileStorage;

  /**
   * Called after each write that stored bytes, with the offsets before and after it, while the
   * upload's lock is still held; a rejection fails the write (the tus handler's early type check).
   */
  afterWrite?: (id: string, from: number, to: number) => Promise<void>;

  /** The request an upload's next write reads from directly (upload-hashing.ts). */
  readFrom(id: string, source: Readable): void {
    this.#hashes.readFrom(id, source);
  }

  unread(id: string, source: Readable): void {
    this.#hashes.unread(id, source);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const direct = this.#hashes.takeSource(id);
    const state = await this.#stateAt(id, offset);
    const size = direct ? (await this.configstore.get(id))?.size : undefined;
    const { tap, count } = hashingTap(offset, size, state.hash);
    this.#hashes.forget(id);
    const written = await writeThroughTap(tap, count, direct, readable, readWithoutDestroying, (bytes) => super.write(bytes, id, offset));
    if (written === count.hashed) this.#hashes.keep(id, { offset: written, hash: state.hash });
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
    this.#hashes.forget(id);
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
    this.#hashes.forget(id);
  }

  /** Removes whatever is left of an upload: its hash state, its bytes and its record (what is gone already is skipped). */
  async discard(id: string): Promise<void> {
    this.forget(id);
    await unlink(join(this.directory, id)).catch(() => undefined);
    await this.configstore.delete(id).catch(() => undefined);
  }

  async #stateAt(id: string, offset: number): Promise<HashState> {
    const known = this.#hashes.take(id);
    if (known?.offset === offset) return known;
    const hash = createHash('sha256');
    if (offset > 0) {
      for await (const chunk of createReadStream(join(this.directory, id), { start: 0, end: offset - 1, highWaterMark: 1024 * 1024 }))
        hash.update(chunk as Buffer);
      this.#hashes.countRehash(offset);
    }
    return { offset, hash };
  }
}

/**
 * Pipes the request into the tap without destroying it (upload-hashing.ts readRequestInto); its
 * errors fail the tap, and so the write.
 */
export function readWithoutDestroying(request: Readable, tap: Transform): () => void {
  return readRequestInto(request, tap, { events: ['error'], cut: (error) => tap.destroy(error) });
}

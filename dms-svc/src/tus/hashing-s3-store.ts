import { createHash } from 'node:crypto';
import type { Readable, Transform } from 'node:stream';
import { S3Store, type MetadataValue } from '@tus/s3-store';
import { ERRORS, Upload, type KvStore } from '@tus/utils';
import type { StagedUpload } from '../files/storage.ts';
import { s3ClientConfigOf, type S3FileStorage } from '../files/s3-storage.ts';
import { SNIFF_BYTES } from '../files/stored-mime-type.ts';
import { FILE_ID } from './tus-metadata.ts';
import type { TusStore } from './tus-store.ts';
import { hashingTap, readRequestInto, UploadHashes, writeThroughTap } from './upload-hashing.ts';

/** An upload's record in the bucket: `<upload id>.info` (@tus/s3-store's naming). */
const RECORD = /^([0-9a-f]{32})\.info$/;

/**
 * A KvStore that keeps nothing: every record is read from the bucket, so that a replica never acts
 * on a record another one changed (completed, terminated, swept) since.
 */
const NO_CACHE: KvStore<MetadataValue> = {
  get: () => Promise.resolve(undefined),
  set: () => Promise.resolve(),
  delete: () => Promise.resolve(),
};

const isMissing = (error: unknown) => ['NoSuchKey', 'NotFound', 'NoSuchUpload'].includes((error as { name?: string }).name ?? '');

/**
 * DMS_STORAGE=s3: the resumable uploads in progress in the files' bucket
 * (docs/adr/0145-resumable-uploads-in-the-bucket.md), on @tus/s3-store: an upload is a multipart
 * upload under its id, its record `<id>.info`, a tail shorter than a part `<id>.part`, and until
 * it is past its first 4,100 bytes those bytes `<id>.head` (the early type check's, for a write on
 * another replica). No byte of an upload is kept on a shared folder: any replica continues it.
 *
 * Its SHA-256 is computed as the bytes arrive while each write continues one of this process from
 * where it ended (or starts at the first byte); the bytes of a multipart upload in progress cannot
 * be read back, so an upload written in part elsewhere (another replica, before a restart, after a
 * write that broke off) is hashed at its completion by reading the assembled object once.
 */
export class HashingS3Store extends S3Store implements TusStore {
  readonly #storage: S3FileStorage;
  readonly #hashes = new UploadHashes();
  /** An upload's first bytes (at most SNIFF_BYTES), while this process knows them and the upload is not past them. */
  readonly #heads = new Map<string, Buffer>();
  readonly rehashed = this.#hashes.rehashed;
  afterWrite?: (id: string, from: number, to: number) => Promise<void>;

  constructor(storage: S3FileStorage, expirationPeriodInMilliseconds: number) {
    super({
      s3ClientConfig: { ...s3ClientConfigOf(storage.settings), bucket: storage.settings.bucket },
      expirationPeriodInMilliseconds,
      // object tags are not what every S3-compatible store keeps; the sweep judges by the record's creation date
      useTags: false,
      cache: NO_CACHE,
    });
    this.#storage = storage;
  }

  readFrom(id: string, source: Readable): void {
    this.#hashes.readFrom(id, source);
  }

  unread(id: string, source: Readable): void {
    this.#hashes.unread(id, source);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const direct = this.#hashes.takeSource(id);
    const size = (await this.getMetadata(id)).file.size;
    const window = Math.min(size ?? SNIFF_BYTES, SNIFF_BYTES);
    const known = this.#hashes.take(id);
    // the hash goes on only from where this process left it, or from the first byte
    const hash = known?.offset === offset ? known.hash : offset === 0 ? createHash('sha256') : undefined;
    const prefix = offset < window ? await this.#headBefore(id, offset) : undefined;
    const taken: Buffer[] = [];
    const { tap, count } = hashingTap(offset, size, hash, (chunk, at) => {
      if (at < window) taken.push(chunk.subarray(0, window - at));
    });
    let written: number;
    try {
      written = await writeThroughTap(tap, count, direct, readable, readUntilCut, (bytes) => super.write(bytes, id, offset));
    } catch (error) {
      // a write that broke off may leave the upload shorter than before (its tail part is rewritten): known first bytes may no longer be its
      this.#heads.delete(id);
      throw error;
    }
    if (hash && written === count.hashed) this.#hashes.keep(id, { offset: written, hash });
    if (prefix !== undefined) {
      const head = Buffer.concat([prefix, ...taken]).subarray(0, Math.min(written, window));
      this.#heads.set(id, head);
      // the next write may be another replica's: the first bytes the type check needs are kept beside the upload
      if (written < window && written > offset) await this.#keepObject(`${id}.head`, head);
    }
    if (written > offset) await this.afterWrite?.(id, offset, written);
    if (written >= window) this.#heads.delete(id);
    // past its first bytes: what an earlier write kept of them is not needed any more
    if (offset > 0 && offset < window && written >= window) await this.#remove(`${id}.head`).catch(() => undefined);
    return written;
  }

  /** An upload; a completed one (already a dms-file, its object moved) from its record alone, at its full length. */
  override async getUpload(id: string): Promise<Upload> {
    const info = await this.info(id);
    if (info?.metadata?.[FILE_ID] === undefined) return super.getUpload(id);
    const size = info.size ?? info.offset;
    return new Upload({ id, size, offset: size, metadata: info.metadata, ...(info.creation_date ? { creation_date: info.creation_date } : {}) });
  }

  /** Termination: the multipart upload aborted, and every object of the upload removed. */
  override async remove(id: string): Promise<void> {
    if (!(await this.info(id))) throw ERRORS.FILE_NOT_FOUND;
    await this.discard(id);
  }

  async info(id: string): Promise<Upload | undefined> {
    try {
      return (await this.getMetadata(id)).file;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async keepInfo(upload: Upload): Promise<void> {
    const { 'upload-id': uploadId } = await this.getMetadata(upload.id);
    await this.saveMetadata(upload, uploadId);
  }

  async dropInfo(id: string): Promise<void> {
    await this.#remove(this.infoKey(id));
  }

  /** The first bytes: from memory, else from the completed object, else from `<id>.head`. */
  async head(id: string, bytes: number): Promise<Buffer> {
    if (bytes === 0) return Buffer.alloc(0);
    const known = this.#heads.get(id);
    if (known && known.length >= bytes) return known.subarray(0, bytes);
    const whole = await this.#object(id, bytes);
    return whole ?? (await this.#object(`${id}.head`, bytes)) ?? Buffer.alloc(0);
  }

  /**
   * The SHA-256 of a completed upload: from memory when this process hashed all of it, else read
   * back from its object. An empty upload's multipart upload is completed here (tus writes nothing).
   */
  async checksumOf(id: string, size: number): Promise<string> {
    const state = this.#hashes.take(id);
    if (size === 0) {
      const metadata = await this.getMetadata(id);
      await this.finishMultipartUpload(metadata, []);
      return createHash('sha256').digest('hex');
    }
    if (state?.offset === size) return state.hash.digest('hex');
    const hash = createHash('sha256');
    for await (const chunk of await this.read(id)) hash.update(chunk as Buffer);
    this.#hashes.countRehash(size);
    return hash.digest('hex');
  }

  /** The completed upload's object, copied within the bucket under a stored name. */
  staged(id: string): StagedUpload {
    return this.#storage.adoptObject(id);
  }

  forget(id: string): void {
    this.#hashes.forget(id);
    this.#heads.delete(id);
  }

  /** Removes whatever is left of an upload: its multipart upload, its objects and its record (what is gone already is skipped). */
  async discard(id: string): Promise<void> {
    this.forget(id);
    const uploadId = await this.getMetadata(id).then(
      (metadata) => metadata['upload-id'],
      () => undefined,
    );
    if (uploadId) await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: uploadId }).catch(() => undefined);
    for (const key of [id, this.partKey(id, true), `${id}.head`, this.infoKey(id)]) await this.#remove(key).catch(() => undefined);
  }

  async *ids(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.listObjectsV2({ Bucket: this.bucket, ContinuationToken: token, MaxKeys: 500 });
      for (const object of page.Contents ?? []) {
        const id = RECORD.exec(object.Key ?? '')?.[1];
        if (id) yield id;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** The upload's first `offset` bytes (below the type check's window), undefined when they are not known here nor kept. */
  async #headBefore(id: string, offset: number): Promise<Buffer | undefined> {
    if (offset === 0) return Buffer.alloc(0);
    const known = this.#heads.get(id) ?? (await this.#object(`${id}.head`, offset));
    return known && known.length >= offset ? known.subarray(0, offset) : undefined;
  }

  /** The first `bytes` bytes of an object, undefined when there is none. */
  async #object(key: string, bytes: number): Promise<Buffer | undefined> {
    try {
      const answer = await this.client.getObject({ Bucket: this.bucket, Key: key, Range: `bytes=0-${bytes - 1}` });
      return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
    } catch (error) {
      if (isMissing(error) || (error as { name?: string }).name === 'InvalidRange') return undefined;
      throw error;
    }
  }

  async #keepObject(key: string, body: Buffer): Promise<void> {
    await this.client.putObject({ Bucket: this.bucket, Key: key, Body: body });
  }

  async #remove(key: string): Promise<void> {
    await this.client.deleteObject({ Bucket: this.bucket, Key: key });
  }
}

/**
 * Pipes the request into the tap as hashing-file-store.ts's readWithoutDestroying does (upload-hashing.ts
 * readRequestInto), except that a request cut off ends the tap instead of failing it: the bytes
 * received until then are stored, as the folder keeps what was written of a cut-off PATCH. A failed
 * write would keep nothing of them (@tus/s3-store drops a part it has not finished), and the client
 * would resume from the start of the part.
 */
function readUntilCut(request: Readable, tap: Transform): () => void {
  const cut = () => {
    if (request.readableEnded) return;
    request.unpipe(tap);
    if (!tap.destroyed && !tap.writableEnded) tap.end();
  };
  return readRequestInto(request, tap, { events: ['error', 'close'], cut });
}

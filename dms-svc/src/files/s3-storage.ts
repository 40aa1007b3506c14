import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  UploadPartCopyCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Settings } from '../config.ts';
import { relayBody } from './relay-body.ts';
import { checkedStoredName, STORED_NAME, type FileStorage, type RemovedEntry, type StagedUpload, type StoredEntry } from './storage.ts';

/**
 * A multipart upload's part, and how many are in flight: an upload holds at most
 * PART_BYTES × PARTS_IN_FLIGHT in memory (lib-storage buffers each part before it is sent).
 */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;
/** The largest object one CopyObject copies (S3's limit); a larger one is copied part by part. */
const COPY_LIMIT = 5 * 1024 ** 3;
const COPY_PART_BYTES = 512 * 1024 ** 2;

/** The S3 client settings of DMS_STORAGE=s3: the files' and the resumable uploads' (tus/hashing-s3-store.ts). */
export function s3ClientConfigOf(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // the SHA-256 is the platform's own; S3-compatible stores do not all take the SDK's CRC trailers
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/**
 * DMS_STORAGE=s3: the bytes in an S3-compatible bucket, one object per dms-file keyed by its
 * generated storedFileName (docs/adr/0144-files-on-s3-compatible-storage.md). An upload streams
 * into its final key as a multipart upload (lib-storage's Upload: bounded memory, the parts
 * uploaded while the request is still read) while receive-upload.ts hashes the same bytes; the
 * object exists before its row commits, as the local store's rename does, and is deleted when the
 * row does not commit; the sweep removes what a crash leaves (objects no row names, multipart
 * uploads never completed). Downloads are streamed through dms-svc (ranged GETs of the object), so
 * the audit rows and share-link download counts stay exact.
 */
export class S3FileStorage implements FileStorage {
  readonly kind = 's3';
  readonly dir: string;
  readonly #client: S3Client;
  readonly #bucket: string;
  /** The settings it was made with (the resumable uploads' store uses the same bucket). */
  readonly settings: S3Settings;

  constructor(settings: S3Settings, dir: string) {
    this.dir = dir;
    this.settings = settings;
    this.#bucket = settings.bucket;
    this.#client = new S3Client(s3ClientConfigOf(settings));
  }

  async prepare(): Promise<void> {
    // fails the start when the bucket cannot be reached or is not there
    await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }));
  }

  stage(): StagedUpload {
    const key = randomUUID();
    let written: Promise<void> | undefined;
    return {
      storedFileName: key,
      write: (source) => {
        written = this.#put(key, source);
        return written;
      },
      read: () => this.#read(key),
      flush: () => Promise.resolve(),
      commit: () => Promise.resolve(),
      discard: async () => {
        await written?.catch(() => undefined);
        if (written) await this.#delete(key).catch(() => undefined);
      },
    };
  }

  adopt(path: string): StagedUpload {
    const key = randomUUID();
    let written: Promise<void> | undefined;
    return {
      storedFileName: key,
      write: () => Promise.reject(new Error('an adopted upload is written already')),
      read: () => createReadStream(path, { highWaterMark: 1024 * 1024 }),
      // before the transaction: the bytes into the bucket
      flush: () => (written = this.#put(key, createReadStream(path, { highWaterMark: 1024 * 1024 }))),
      // the local copy is not needed once the object is there
      commit: () => unlink(path).catch(() => undefined),
      discard: async () => {
        await written?.catch(() => undefined);
        if (written) await this.#delete(key).catch(() => undefined);
        await unlink(path).catch(() => undefined);
      },
    };
  }

  /**
   * A new upload from an object of the bucket already written (a finished resumable upload's, under
   * its upload id): copied within the store under a fresh stored name before the transaction (no
   * byte through dms-svc), the source deleted once the row commits.
   */
  adoptObject(key: string): StagedUpload {
    const target = randomUUID();
    let copied: Promise<void> | undefined;
    return {
      storedFileName: target,
      write: () => Promise.reject(new Error('an adopted upload is written already')),
      read: () => this.#read(key),
      flush: () => (copied = this.#copy(key, target)),
      commit: () => this.#delete(key).catch(() => undefined),
      discard: async () => {
        await copied?.catch(() => undefined);
        if (copied) await this.#delete(target).catch(() => undefined);
        await this.#delete(key).catch(() => undefined);
      },
    };
  }

  async sizeOf(storedFileName: string): Promise<number> {
    const head = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: checkedStoredName(storedFileName) }));
    return Number(head.ContentLength ?? 0);
  }

  async writeRange(res: ServerResponse, storedFileName: string, start: number, end: number): Promise<void> {
    const abort = new AbortController();
    const stop = () => abort.abort();
    res.once('close', stop);
    try {
      const answer = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: checkedStoredName(storedFileName), Range: `bytes=${start}-${end}` }),
        { abortSignal: abort.signal },
      );
      // copied into a few 512 KiB buffers, each one write (relay-body.ts); a body shorter or longer than the range cuts the answer off
      await relayBody(answer.Body as Readable, res, end - start + 1, storedFileName);
    } finally {
      res.off('close', stop);
    }
  }

  async copyTo(storedFileName: string, path: string): Promise<void> {
    await pipeline(await this.readStored(storedFileName), createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  }

  /** The whole stored object; rejects (an error named NoSuchKey) when there is none. For backup and restore (scripts/lib/backup-run.ts). */
  async readStored(storedFileName: string): Promise<Readable> {
    const answer = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: checkedStoredName(storedFileName) }));
    return answer.Body as Readable;
  }

  /** Writes `source` whole under a stored name (an object appears whole or not at all). For restore (scripts/lib/backup-restore-run.ts). */
  putStored(storedFileName: string, source: Readable): Promise<void> {
    return this.#put(checkedStoredName(storedFileName), source);
  }

  /** The bucket, for messages. */
  get bucket(): string {
    return this.#bucket;
  }

  async remove(storedFileName: string): Promise<void> {
    await this.#delete(checkedStoredName(storedFileName));
  }

  async *entries(): AsyncIterable<StoredEntry> {
    let token: string | undefined;
    do {
      const page = await this.#client.send(new ListObjectsV2Command({ Bucket: this.#bucket, ContinuationToken: token, MaxKeys: 500 }));
      for (const object of page.Contents ?? []) {
        if (object.Key && STORED_NAME.test(object.Key))
          yield { name: object.Key, kind: 'stored', modifiedMs: object.LastModified?.getTime() ?? Date.now(), bytes: Number(object.Size ?? 0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    // the multipart uploads a crash left unfinished: their parts take space until aborted
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.#client
        .send(new ListMultipartUploadsCommand({ Bucket: this.#bucket, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }))
        .catch((error: unknown) => {
          // a store that does not list them (its own lifecycle rule then aborts them): the objects are swept all the same
          if ((error as { name?: string }).name === 'NotImplemented') return undefined;
          throw error;
        });
      if (!page) return;
      for (const upload of page.Uploads ?? []) {
        if (upload.Key && upload.UploadId && STORED_NAME.test(upload.Key))
          yield { name: upload.Key, kind: 'temporary', handle: upload.UploadId, modifiedMs: upload.Initiated?.getTime() ?? Date.now(), bytes: 0 };
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
  }

  async removeIfOlder(entry: StoredEntry, cutoff: number): Promise<RemovedEntry | undefined> {
    if (entry.modifiedMs === undefined || entry.modifiedMs >= cutoff) return undefined;
    if (entry.kind === 'temporary') {
      try {
        await this.#client.send(new AbortMultipartUploadCommand({ Bucket: this.#bucket, Key: entry.name, UploadId: entry.handle }));
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchUpload') return undefined;
        throw error;
      }
    } else await this.#delete(checkedStoredName(entry.name));
    return { bytes: entry.bytes ?? 0, modifiedAt: new Date(entry.modifiedMs) };
  }

  /** Streams `source` into `key` (a multipart upload when it is larger than a part); a failure destroys the source and aborts the upload. */
  async #put(key: string, source: Readable): Promise<void> {
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key: key, Body: source },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // the source is not read any further: its writer must not wait on it
      source.destroy(error as Error);
      throw error;
    }
  }

  /** Copies an object within the bucket: whole up to 5 GiB, else as a multipart upload of ranged part copies. */
  async #copy(source: string, target: string): Promise<void> {
    const copySource = `${this.#bucket}/${encodeURIComponent(source)}`;
    const size = Number((await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: source }))).ContentLength ?? 0);
    if (size <= COPY_LIMIT) {
      await this.#client.send(new CopyObjectCommand({ Bucket: this.#bucket, Key: target, CopySource: copySource }));
      return;
    }
    const { UploadId } = await this.#client.send(new CreateMultipartUploadCommand({ Bucket: this.#bucket, Key: target }));
    try {
      const parts: { ETag: string; PartNumber: number }[] = [];
      for (let start = 0, part = 1; start < size; start += COPY_PART_BYTES, part++) {
        const end = Math.min(start + COPY_PART_BYTES, size) - 1;
        const copied = await this.#client.send(
          new UploadPartCopyCommand({
            Bucket: this.#bucket,
            Key: target,
            UploadId,
            PartNumber: part,
            CopySource: copySource,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        parts.push({ ETag: copied.CopyPartResult?.ETag ?? '', PartNumber: part });
      }
      await this.#client.send(new CompleteMultipartUploadCommand({ Bucket: this.#bucket, Key: target, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (error) {
      await this.#client.send(new AbortMultipartUploadCommand({ Bucket: this.#bucket, Key: target, UploadId })).catch(() => undefined);
      throw error;
    }
  }

  #read(key: string): Readable {
    const out = new PassThrough({ highWaterMark: 1024 * 1024 });
    this.#client
      .send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }))
      .then((answer) => pipeline(answer.Body as Readable, out))
      .catch((error: unknown) => out.destroy(error as Error));
    return out;
  }

  async #delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
  }
}

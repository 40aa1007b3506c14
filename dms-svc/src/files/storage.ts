import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/** A stored file's name: generated (a UUID), never the client's. */
export const STORED_NAME = /^[0-9a-f-]{36}$/;

/**
 * One upload's bytes on their way to a stored file (docs/adr/0144-files-on-s3-compatible-storage.md).
 * Its stored name is fixed when it begins; the row that names it is written by storeUpload, which
 * calls, in this order: `write` (the bytes, once), `read` (the virus scan), `flush` (before the
 * transaction: the bytes durable), `commit` (the transaction's last step: the bytes under the stored
 * name), and `discard` after any failure or a replay (whatever of the bytes exists is removed).
 */
export interface StagedUpload {
  readonly storedFileName: string;
  /** Streams `source` into the store; rejects (the source destroyed) when the store fails. */
  write(source: Readable): Promise<void>;
  /** The written bytes, from the first. */
  read(): Readable;
  flush(): Promise<void>;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** An entry of the store that is the storage's own: a stored file, or an upload's leftover. */
export interface StoredEntry {
  name: string;
  kind: 'stored' | 'temporary';
  /** The store's own handle of a temporary (an S3 multipart upload's id). */
  handle?: string;
  /** When known from the listing (S3): last written, ms since the epoch, and size. */
  modifiedMs?: number;
  bytes?: number;
}

/** What removeIfOlder removed. */
export interface RemovedEntry {
  bytes: number;
  modifiedAt: Date;
}

/**
 * Where file bytes live: a folder (DMS_STORAGE=local, the default: local-storage.ts) or an
 * S3-compatible bucket (DMS_STORAGE=s3: s3-storage.ts). Every stored file is named by its generated
 * storedFileName; downloads are streamed through dms-svc from either.
 */
export interface FileStorage {
  readonly kind: 'local' | 's3';
  /**
   * The local folder: the stored files' and the resumable uploads' in progress under
   * DMS_STORAGE=local; unused under DMS_STORAGE=s3, where both are in the bucket
   * (docs/adr/0145-resumable-uploads-in-the-bucket.md).
   */
  readonly dir: string;
  /** Makes the store ready (the folder made; the bucket reached). */
  prepare(): Promise<void>;
  /** A new upload, under a fresh stored name. */
  stage(): StagedUpload;
  /** A new upload from a file already written on the local disk (a finished resumable upload's on the folder). */
  adopt(path: string): StagedUpload;
  /** The size of a stored file; rejects when it is missing. */
  sizeOf(storedFileName: string): Promise<number>;
  /** Writes bytes `start` to `end` (inclusive) of a stored file as the body of `res`, then ends it; rejects when cut off. */
  writeRange(res: ServerResponse, storedFileName: string, start: number, end: number): Promise<void>;
  /** Copies a stored file's bytes to the local file `path` (the text extraction's private copy); rejects when it is missing. */
  copyTo(storedFileName: string, path: string): Promise<void>;
  /** Removes a stored file (one already gone is no error). */
  remove(storedFileName: string): Promise<void>;
  /** Every entry of the store that is the storage's own (anything else is left alone), streamed. */
  entries(): AsyncIterable<StoredEntry>;
  /** Removes an entry last written before `cutoff` (ms); undefined when it is younger or already gone. */
  removeIfOlder(entry: StoredEntry, cutoff: number): Promise<RemovedEntry | undefined>;
}

/** The name of a stored file, refused when it is not one the storage generates. */
export function checkedStoredName(storedFileName: string): string {
  if (!STORED_NAME.test(storedFileName)) throw new Error(`not a stored file name: ${storedFileName.slice(0, 80)}`);
  return storedFileName;
}

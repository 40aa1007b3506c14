import type { DataStore, Upload } from '@tus/utils';
import type { Readable } from 'node:stream';
import type { StagedUpload } from '../files/storage.ts';

/**
 * Where the resumable uploads in progress are kept, as the rest of dms-svc's tus part uses it: a
 * tus DataStore that computes each upload's SHA-256 as its bytes arrive, with the upload's record
 * (tus's Upload: length, metadata, creation date) beside it. DMS_STORAGE=local keeps them under
 * `<DMS_STORAGE_DIR>/.tus` (hashing-file-store.ts), DMS_STORAGE=s3 in the bucket
 * (hashing-s3-store.ts; docs/adr/0145-resumable-uploads-in-the-bucket.md).
 */
export interface TusStore extends DataStore {
  /** Called after each write that stored bytes, under the upload's lock; a rejection fails the write. */
  afterWrite?: (id: string, from: number, to: number) => Promise<void>;
  /** How many times an upload's bytes were read back to be hashed, and how many bytes (for the tests and logs). */
  readonly rehashed: { times: number; bytes: number };
  /** The request an upload's next write reads from directly (tus-adapter.ts). */
  readFrom(id: string, source: Readable): void;
  /** Forgets the request `readFrom` registered for an upload, if it is still `source`. */
  unread(id: string, source: Readable): void;
  /** An upload's record, undefined when there is none. */
  info(id: string): Promise<Upload | undefined>;
  /** Writes an upload's record (a completed one's names its dms-file). */
  keepInfo(upload: Upload): Promise<void>;
  /** Removes an upload's record alone (one gone already is no error). */
  dropInfo(id: string): Promise<void>;
  /** The first `bytes` bytes of an upload (fewer when it has fewer). */
  head(id: string, bytes: number): Promise<Buffer>;
  /** The SHA-256 of a whole upload of `size` bytes, once all of them are stored. */
  checksumOf(id: string, size: number): Promise<string>;
  /** A completed upload's bytes on their way to a stored file (storeUpload's staging). */
  staged(id: string): StagedUpload;
  /** Forgets an upload's hash state. */
  forget(id: string): void;
  /** Removes whatever is left of an upload: its state, its bytes and its record. */
  discard(id: string): Promise<void>;
  /** The id of every upload with a record, streamed. */
  ids(): AsyncIterable<string>;
}

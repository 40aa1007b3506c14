import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Locker } from '@tus/utils';
import type { DmsConfig } from '../config.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import type { FileStorage } from '../files/storage.ts';
import type { UploadScanner } from '../scan/upload-scanner.ts';
import type { FileTexts } from '../text/file-texts.ts';
import { S3FileStorage } from '../files/s3-storage.ts';
import { HashingFileStore } from './hashing-file-store.ts';
import { HashingS3Store } from './hashing-s3-store.ts';
import { TusAdapter } from './tus-adapter.ts';
import { completeUpload } from './tus-completion.ts';
import { answerTus } from './tus-gate.ts';
import type { TusStore } from './tus-store.ts';
import { contentTypeCheck } from './tus-type-check.ts';

/** The folder of the uploads in progress, under the storage root (never a stored file's name, never served). */
const TUS_DIR = '.tus';

export interface TusDeps {
  runtime: Runtime;
  config: DmsConfig;
  files: ResourceRuntime;
  storage: FileStorage;
  locker: Locker;
  /** The upload scanner storeUpload runs (docs/adr/0096-what-a-scan-answers.md). */
  scanner: UploadScanner;
  /** What an upload does for its file's words (text/file-texts.ts). */
  texts: FileTexts;
}

/** The resumable uploads as the service runs them: what the file server hands tus paths to, and the store the sweep clears. */
export interface TusUploads {
  readonly store: TusStore;
  /** Answers one request on a tus path (tus-gate.ts). */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

/**
 * The store of the uploads in progress: the service's, and the one the worker's sweep clears. Under
 * DMS_STORAGE=local the folder `<DMS_STORAGE_DIR>/.tus`, a completed upload's file moved into the
 * stored files; under DMS_STORAGE=s3 the bucket itself (docs/adr/0145-resumable-uploads-in-the-bucket.md).
 */
export function tusStore(storage: FileStorage, config: DmsConfig): TusStore {
  const expiry = config.dms.tusExpirySeconds * 1000;
  if (storage instanceof S3FileStorage) return new HashingS3Store(storage, expiry);
  const store = new HashingFileStore({ directory: join(storage.dir, TUS_DIR), expirationPeriodInMilliseconds: expiry });
  store.storage = storage;
  return store;
}

/**
 * Resumable uploads by tus 1.0.0 (core, creation, creation-with-upload, termination, expiration)
 * at /api/dms-file/tus (docs/interface.md#files, docs/adr/0093-resumable-uploads-tus-which-parts.md), on
 * @tus/server with a store that hashes as bytes arrive (tusStore: a folder, or the bucket). A
 * request reads from here down: the gate's checks (tus-gate.ts; a creation's limits, reservation
 * and Idempotency-Key in tus-creation.ts), tus itself (tus-adapter.ts), the content's type once its
 * first bytes are in (tus-type-check.ts), the completion into a dms-file (tus-completion.ts); the
 * sweep of expired uploads is tus-sweep.ts.
 */
export function tusUploads(deps: TusDeps): TusUploads {
  const store = tusStore(deps.storage, deps.config);
  // a length is needed at creation: the limits are judged on it before any byte is taken
  store.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  store.afterWrite = contentTypeCheck(store, deps.runtime);
  const adapter = new TusAdapter({
    store,
    locker: deps.locker,
    maxUploadBytes: deps.config.dms.maxUploadBytes,
    finish: (call, upload) => completeUpload(deps, store, call.req, call.ctx, upload),
  });
  const gate = { runtime: deps.runtime, config: deps.config, store, adapter };
  return { store, handle: (req, res, path) => answerTus(gate, req, res, path) };
}

import type { DmsConfig } from '../config.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import type { DownloadSigner } from '../files/download-signature.ts';
import type { FileStorage } from '../files/storage.ts';

/** What the public share-link paths use of the file server's parts. */
export interface PublicShareDeps {
  runtime: Runtime;
  config: DmsConfig;
  storage: FileStorage;
  signer: DownloadSigner;
}

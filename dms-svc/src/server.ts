import type { Server } from '@grpc/grpc-js';
import type { Config } from '@platform/libs/config/config.ts';
import { resourceRuntime } from '@platform/libs/crud/handlers.ts';
import { registerResources } from '@platform/libs/grpc/register-resources.ts';
import type { Runtime } from '@platform/libs/grpc/server.ts';
import { schemas } from './db.ts';
import { DownloadSigner } from './files/download-signature.ts';
import { FileStorage } from './files/storage.ts';
import { startFileServer } from './http/file-server.ts';
import { dmsFile } from './resources/dms-file/dms-file.resource.ts';
import { dmsFileHooks } from './resources/dms-file/dms-file.hooks.ts';
import { dmsFileOperations } from './resources/dms-file/dms-file.operations.ts';
import { dmsResources } from './resources/index.ts';

/** Registers the document service's gRPC implementations: every resource. */
export function register(server: Server, runtime: Runtime, config: Config): void {
  const signer = new DownloadSigner(config.dmsUrlSecret);
  const ttl = config.dms.urlTtlSeconds;
  registerResources(server, runtime, schemas, dmsResources, {
    'dms-file': { hooks: dmsFileHooks(signer, ttl), handlers: dmsFileOperations(signer, ttl) },
  });
}

/** The HTTP server for file bytes beside gRPC (upload and signed download). */
export function serve(runtime: Runtime, config: Config) {
  return startFileServer({
    runtime,
    config,
    files: resourceRuntime(schemas, dmsFile),
    storage: new FileStorage(config.dms.storageDir),
    signer: new DownloadSigner(config.dmsUrlSecret),
  });
}

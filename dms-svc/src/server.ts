import type { Server } from '@grpc/grpc-js';
import { registerImport } from '@platform/service-kit/import/service.ts';
import { processJobSender } from '@platform/service-kit/jobs/process-sender.ts';
import { importTargets } from './import-targets.ts';
import type { DmsConfig } from './config.ts';
import { resourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { registerResources } from '@platform/service-kit/crud/register-resources.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { auditVerify } from './audit/verify-audit.ts';
import { registerHistory } from '@platform/service-kit/history/list-history.ts';
import { registerSearch } from '@platform/service-kit/search/search.ts';
import { SEARCH_KINDS } from '@platform/contracts/search.ts';
import { SCHEMA, schemas } from './db.ts';
import { DownloadSigner } from './files/download-signature.ts';
import { storageOf } from './files/storage-of.ts';
import { storageUsage } from './files/storage-usage.ts';
import { startFileServer } from './routes/file-server.ts';
import { uploadScannerOf } from './scan/upload-scanner.ts';
import { dmsCategoryHooks } from './resources/dms-category/dms-category.hooks.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { dmsFileHooks } from './resources/dms-file/dms-file.hooks.ts';
import { fileReadLimit } from './access/file-read-limit.ts';
import { auditLogHooks } from './audit/audit-log.hooks.ts';
import { dmsFileOperations } from './resources/dms-file/dms-file.operations.ts';
import { shareLinkHooks } from './resources/dms-share-link/dms-share-link.hooks.ts';
import { shareLinkReadLimit } from './resources/dms-share-link/share-link-read-limit.ts';
import { dmsShareLink } from '@platform/contracts/dms/dms-share-link.ts';
import { dmsResources } from '@platform/contracts/dms/index.ts';
import { retentionOperations } from './retention/retention-operations.ts';
import { matchingRuleOperations } from './matching/apply-operation.ts';
import { dmsMatchingRuleHooks } from './resources/dms-matching-rule/dms-matching-rule.hooks.ts';
import { LeaseLocker } from './tus/lease-locker.ts';
import { tusUploads } from './tus/tus-uploads.ts';
import { fileTexts } from './text/file-texts.ts';
import { textOperations } from './text/text-operations.ts';

/** Registers the document service's gRPC implementations: every resource and its history, the search of its files, the audit chain's check, retention's dry run and run, the matching rules' re-apply. */
export function register(server: Server, runtime: Runtime, config: DmsConfig): void {
  const signer = new DownloadSigner(config.dmsUrlSecret);
  const ttl = config.dms.urlTtlSeconds;
  registerResources(server, runtime, schemas, dmsResources, {
    'dms-category': { hooks: dmsCategoryHooks },
    'dms-file': {
      hooks: dmsFileHooks(signer, ttl),
      handlers: (runtimes) => ({
        ...dmsFileOperations(signer, ttl)(runtimes),
        ...storageUsage(),
        ...textOperations(resourceRuntime(schemas, dmsFile), processJobSender(), config.dms.text.extraction),
      }),
    },
    'dms-retention-policy': { handlers: retentionOperations(storageOf(config), runtime.log, config.dms.sweepGraceSeconds * 1000) },
    'dms-matching-rule': { hooks: dmsMatchingRuleHooks, handlers: matchingRuleOperations(runtime.log, config.dms.matchingRegexTimeoutMs) },
    'dms-share-link': { hooks: shareLinkHooks(config.bcryptRounds) },
    'dms-audit-log': { hooks: auditLogHooks, handlers: auditVerify },
  });
  // a file, and a share link to it, the caller may not read (a category's readRole) is no hit and has no history
  const limits = new Map([
    [dmsFile.path, fileReadLimit],
    [dmsShareLink.path, shareLinkReadLimit],
  ]);
  registerHistory(server, runtime, dmsResources, SCHEMA, limits);
  registerImport(
    server,
    runtime,
    importTargets.map((target) => target.resource),
    'dms',
    processJobSender(),
  );
  registerSearch(
    server,
    runtime,
    SEARCH_KINDS.filter((kind) => kind.resource.service === 'dms'),
    SCHEMA,
    limits,
  );
}

/**
 * Beside gRPC: the HTTP server for file bytes (upload, resumable upload and signed download), which
 * stops with the service. Retention and the sweeps run in dms-svc's worker (worker.ts).
 */
export async function serve(runtime: Runtime, config: DmsConfig) {
  const storage = storageOf(config);
  const files = resourceRuntime(schemas, dmsFile);
  const scanner = uploadScannerOf(runtime, config.dms.clamd);
  const locker = new LeaseLocker(runtime.orm);
  const texts = fileTexts(config.dms.text.extraction, processJobSender(), runtime.log);
  const tus = tusUploads({ runtime, config, files, storage, locker, scanner, texts });
  const http = await startFileServer({ runtime, config, files, storage, signer: new DownloadSigner(config.dmsUrlSecret), tus, scanner, texts });
  return {
    async close() {
      await http.close();
    },
  };
}

import type { Server } from '@grpc/grpc-js';
import type { Config } from '@platform/libs/config/config.ts';
import { registerResources } from '@platform/libs/grpc/register-resources.ts';
import type { Runtime } from '@platform/libs/grpc/server.ts';
import { auditVerify } from './audit/verify-audit.ts';
import { schemas } from './db.ts';
import { dmsResources } from './resources/index.ts';
import { dmsCategoryHooks } from './resources/dms-category/dms-category.hooks.ts';
import { shareLinkHooks } from './resources/dms-share-link/dms-share-link.hooks.ts';

/** Registers the document service's gRPC implementations: every resource, and the audit chain's check. */
export function register(server: Server, runtime: Runtime, config: Config): void {
  registerResources(server, runtime, schemas, dmsResources, {
    'dms-category': { hooks: dmsCategoryHooks },
    'dms-share-link': { hooks: shareLinkHooks(config.bcryptRounds) },
    'dms-audit-log': { handlers: auditVerify },
  });
}

import type { Server } from '@grpc/grpc-js';
import { registerImport } from '@platform/service-kit/import/service.ts';
import { processJobSender } from '@platform/service-kit/jobs/process-sender.ts';
import { importTargets } from './import-targets.ts';
import { registerResources } from '@platform/service-kit/crud/register-resources.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { registerHistory } from '@platform/service-kit/history/list-history.ts';
import { registerSearch } from '@platform/service-kit/search/search.ts';
import { SEARCH_KINDS } from '@platform/contracts/search.ts';
import { SCHEMA, schemas } from './db.ts';
import { bpmResources } from '@platform/contracts/bpm/index.ts';
import { accrualHooks } from './resources/accrual/accrual.hooks.ts';
import { accrualMoves } from './resources/accrual/accrual.operations.ts';
import { accrualSummary } from './resources/accrual/accrual.summary.ts';
import { branchByPartner } from './resources/branch/branch.operations.ts';

/** Registers the partner-management service's gRPC implementations: every resource, its history, and the search of its kinds. */
export function register(server: Server, runtime: Runtime): void {
  registerResources(server, runtime, schemas, bpmResources, {
    branch: { handlers: branchByPartner },
    accrual: { hooks: accrualHooks, handlers: (runtimes) => ({ ...accrualMoves(runtimes), ...accrualSummary() }) },
  });
  registerHistory(server, runtime, bpmResources, SCHEMA);
  registerImport(
    server,
    runtime,
    importTargets.map((target) => target.resource),
    'bpm',
    processJobSender(),
  );
  registerSearch(
    server,
    runtime,
    SEARCH_KINDS.filter((kind) => kind.resource.service === 'bpm'),
    SCHEMA,
  );
}

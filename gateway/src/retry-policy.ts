import type { OperationTable } from '@platform/contracts/operation.ts';
import { INTERNAL_CALLS } from '@platform/contracts/core/internal-calls.ts';
import { OPERATION_TABLES } from '@platform/contracts/operations.ts';
import { crudMethods } from '@platform/kit/resource/crud-methods.ts';
import { SearchServiceService } from '@platform/kit/gen/platform/common/v1/search.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';
import { registry } from './registry.ts';

/**
 * The RPCs that only read, and so may be sent again when a service was unavailable: the get, list
 * and stats of every resource's CRUD set, and each declared operation whose retry class is `read`
 * (libs/contracts: the branches of a partner, the file searches, me, the session pages, ...), and
 * the gateway's own calls declared `read` (libs/contracts/src/core/internal-calls.ts: CheckSession),
 * and the global search's Search, which the gateway calls on several services (routes/search.ts).
 * Everything else writes (create, update, delete, the accrual moves, login, logout,
 * change-password, switch-account, the session and exception records) and is never retried: a
 * write that reached a service which then failed must not happen twice.
 */
export function readOnlyMethods(
  resources: readonly Resource[] = registry,
  tables: readonly OperationTable[] = OPERATION_TABLES,
): { service: string; method: string }[] {
  const reads = [
    ...resources.flatMap((resource) => {
      const { get, list, stats } = crudMethods(resource);
      return [get, list, stats];
    }),
    ...tables.flatMap((table) => Object.values(table).flatMap((operation) => (operation.rpc?.retry === 'read' ? [operation.rpc.method] : []))),
    ...Object.values(INTERNAL_CALLS).flatMap((call) => (call.retry === 'read' ? [call.method] : [])),
    SearchServiceService.search,
  ];
  const names = new Map<string, { service: string; method: string }>();
  for (const read of reads) {
    if (!read) continue;
    const [service = '', method = ''] = read.path.slice(1).split('/');
    names.set(read.path, { service, method });
  }
  return [...names.values()];
}

/**
 * grpc-js service config (gRFC A6): a read-only call that ends UNAVAILABLE (the service restarting,
 * its connection refused or reset) is tried up to 3 times, 100 ms then 200 ms apart (jittered),
 * within the call's own deadline; retries stop under a throttle when most calls fail (a service that
 * stays down gets no retry storm). Writes have no retry policy.
 */
export function retryServiceConfig(): string {
  return JSON.stringify({
    methodConfig: [
      {
        name: readOnlyMethods(),
        retryPolicy: {
          maxAttempts: 3,
          initialBackoff: '0.1s',
          maxBackoff: '1s',
          backoffMultiplier: 2,
          retryableStatusCodes: ['UNAVAILABLE'],
        },
      },
    ],
    retryThrottling: { maxTokens: 10, tokenRatio: 0.1 },
  });
}

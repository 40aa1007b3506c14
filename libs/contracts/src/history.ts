import { HistoryServiceService } from '@platform/kit/gen/platform/common/v1/history.ts';
import { keyOf, type Resource } from '@platform/kit/resource/resource.ts';
import { bpmResources } from './bpm/index.ts';
import { coreResources } from './core/index.ts';
import { dmsResources } from './dms/index.ts';
import { rpcOperation, type OperationTable } from './operation.ts';

/**
 * GET /api/{entity}/{key}/history of one resource (docs/interface.md#history): the record's events,
 * newest first, from the outbox of the resource's own service.
 */
function historyOperation(resource: Resource) {
  return rpcOperation({
    method: 'get',
    path: `/api/${resource.path}/:key/history`,
    query: { page: 'int', size: 'int' },
    rpc: { service: resource.service, method: HistoryServiceService.listHistory, retry: 'read' },
    doc: (sources) => ({
      tag: resource.path,
      summary: `The history of a ${resource.path}, newest first`,
      description: `${sources.rpc ?? ''} Needs ${resource.path}:read. page from 0, size 1 to 500 (20 when not given).`.trim(),
      pathParams: { key: { ...sources.key(resource), description: keyOf(resource) === 'id' ? "The record's id." : `The record's ${keyOf(resource)}.` } },
      ok: { status: 200, schema: sources.ref('HistoryEventPage'), description: "One page of the record's events." },
      errors: [404],
    }),
  });
}

/** The history operation of every resource of the three services, named `history<Name>` (historyBranch). */
export const HISTORY_OPERATIONS: Readonly<Record<string, ReturnType<typeof historyOperation>>> = Object.fromEntries(
  [...coreResources, ...bpmResources, ...dmsResources].map((resource) => [`history${resource.name}`, historyOperation(resource)]),
) satisfies OperationTable;

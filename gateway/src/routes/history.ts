import { HISTORY_OPERATIONS } from '@platform/contracts/history.ts';
import type { Operation } from '@platform/contracts/operation.ts';
import type { ListHistoryRequest, ListHistoryResponse } from '@platform/libs/gen/platform/common/v1/history.ts';
import { keyOf, type Resource } from '@platform/libs/resource/resource.ts';
import type { Backends } from '../backends.ts';
import { sendJson } from '../http/json-answer.ts';
import { callRpc } from './call-rpc.ts';
import { keyParam, userMetadata } from './crud.ts';
import { routerFor, type RouteGroup } from './route.ts';

/** The routes of the records' histories, as declared (libs/contracts/src/history.ts). */
export const HISTORY_ROUTES = HISTORY_OPERATIONS;

/**
 * GET /api/{entity}/{key}/history?page=&size= (docs/interface.md#history): the record's events from
 * its service, as the interface's PageResponse. The key is checked as the resource's own.
 */
export function historyRoutes(resources: readonly Resource[], backends: Backends): RouteGroup {
  const byName = new Map(resources.map((resource) => [`history${resource.name}`, resource]));
  const handlers = Object.fromEntries(
    Object.entries(HISTORY_ROUTES).map(([name, operation]) => {
      const resource = byName.get(name);
      if (!resource) throw new Error(`${name}: no resource in the registry`);
      const { rpc } = operation as Operation<ListHistoryRequest, ListHistoryResponse>;
      if (!rpc) throw new Error(`${name}: no RPC`);
      return [
        name,
        async (req, res, query: { page?: number; size?: number }) => {
          const key = String(keyParam(resource, req.params.key)[keyOf(resource)]);
          const response = await callRpc(backends, rpc, { entity: resource.path, key, page: query.page, size: query.size }, userMetadata(req, res));
          const meta = response.meta;
          sendJson(res, {
            content: response.content.map((event) => ({
              id: event.id,
              type: event.type,
              occurredAt: event.occurredAt,
              userCode: event.userCode ?? null,
              version: event.version ?? null,
              changes: event.changes ?? {},
            })),
            page: meta?.page ?? 0,
            size: meta?.size ?? 0,
            totalElements: meta?.totalElements ?? 0,
            totalPages: meta?.totalPages ?? 0,
            first: meta?.first ?? true,
            last: meta?.last ?? true,
            empty: meta?.empty ?? true,
          });
        },
      ] as const;
    }),
  ) as Parameters<typeof routerFor<typeof HISTORY_ROUTES>>[1];
  return routerFor(HISTORY_ROUTES, handlers);
}

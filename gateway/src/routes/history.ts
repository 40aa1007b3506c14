import { HISTORY_OPERATIONS } from '@platform/contracts/history.ts';
import type { HistoryEvent } from '@platform/kit/gen/platform/common/v1/history.ts';
import { keyOf, type Resource } from '@platform/kit/resource/resource.ts';
import type { Backends } from '../backends.ts';
import { sendJson } from '../http/json-answer.ts';
import { pageJson } from '../http/page-json.ts';
import { callRpc } from './call-rpc.ts';
import { keyParam, userMetadata } from './crud.ts';
import { routerFor, type RouteGroup, type RouteHandler } from './route.ts';

/** The routes of the records' histories, as declared (libs/contracts/src/history.ts). */
export const HISTORY_ROUTES = HISTORY_OPERATIONS;

/**
 * GET /api/{entity}/{key}/history?page=&size= (docs/interface.md#history): the record's events from
 * its service, as the interface's PageResponse. The key is checked as the resource's own.
 */
export function historyRoutes(resources: readonly Resource[], backends: Backends): RouteGroup {
  const byName = new Map(resources.map((resource) => [`history${resource.name}`, resource]));
  const handlers: Record<string, RouteHandler<(typeof HISTORY_ROUTES)[string]>> = {};
  for (const [name, { rpc }] of Object.entries(HISTORY_ROUTES)) {
    const resource = byName.get(name);
    if (!resource) throw new Error(`${name}: no resource in the registry`);
    handlers[name] = async (req, res, query) => {
      const key = String(keyParam(resource, req.params.key)[keyOf(resource)]);
      const response = await callRpc(backends, rpc, { entity: resource.path, key, page: query.page, size: query.size }, userMetadata(req, res));
      sendJson(res, pageJson(response.content.map(eventJson), response.meta));
    };
  }
  return routerFor(HISTORY_ROUTES, handlers);
}

/** An event as the history shows it: every field present, null where unset. */
function eventJson(event: HistoryEvent) {
  return {
    id: event.id,
    type: event.type,
    occurredAt: event.occurredAt,
    userCode: event.userCode ?? null,
    version: event.version ?? null,
    changes: event.changes ?? {},
  };
}

/**
 * The history of a record (docs/interface.md#history): its events in the service's outbox
 * (outbox-entity.ts), newest first, a page at a time. Every service serves HistoryService for its
 * own resources from its own outbox.
 */
import type { Server } from '@grpc/grpc-js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { authorize, tenantScope, type CallContext } from '../auth/caller.ts';
import { pageBounds, pageMeta } from '../crud/list-query.ts';
import { DomainError, notFound } from '@platform/kit/errors/domain-error.ts';
import { HistoryServiceService, type HistoryEvent, type ListHistoryRequest, type ListHistoryResponse } from '@platform/kit/gen/platform/common/v1/history.ts';
import { implement, type Handler, type Runtime } from '../grpc/server.ts';
import { keyOf, tableOf, type Resource } from '@platform/kit/resource/resource.ts';
import { outboxTable } from '../events/outbox-entity.ts';
import type { ReadLimit, ReadLimits } from '../crud/read-limit.ts';
import { snake } from '../db/row.ts';

/**
 * Serves `platform.common.v1.HistoryService` for `resources` (the service's own) from the outbox of
 * `schema`.
 *
 * @example
 * registerHistory(server, runtime, bpmResources, 'bpm');
 */
export function registerHistory(server: Server, runtime: Runtime, resources: readonly Resource[], schema: string, limits: ReadLimits = new Map()): void {
  server.addService(HistoryServiceService, implement(runtime, { listHistory: historyHandler(resources, schema, limits) }));
}

/**
 * ListHistory: the caller needs `<entity>:read`. The access is read for the read roles of every
 * resource the service serves (one method for all of them), and the entity's own is checked. A
 * record outside the caller's read limit (`limits`, crud/read-limit.ts) has, to it, no history: 404.
 */
export function historyHandler(
  resources: readonly Resource[],
  schema: string,
  limits: ReadLimits = new Map(),
): Handler<ListHistoryRequest, ListHistoryResponse> {
  const byPath = new Map(resources.map((resource) => [resource.path, resource]));
  const paths = new Set(byPath.keys());
  const table = `"${schema}"."${outboxTable(schema)}"`;
  const handler = async (request: ListHistoryRequest, ctx: CallContext): Promise<ListHistoryResponse> => {
    // an entity this service does not serve is no path of the interface
    if (!paths.has(request.entity)) throw new DomainError('SVC-SYS-4001', 'path.notFound', { path: `${request.entity.slice(0, 64)}/history` });
    authorize(ctx, `${request.entity}:read`);
    if (request.key === '' || request.key.length > 255) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: 'key' });
    const { page, size } = pageBounds(request.page, request.size);
    const scope = tenantScope(ctx);
    const resource = byPath.get(request.entity);
    const readLimit = await limits.get(request.entity)?.(ctx);
    if (resource && readLimit && (await hidden(ctx.em, schema, resource, request.key, scope, readLimit))) throw notFound(request.entity);
    const total = await countEvents(ctx.em, table, request.entity, request.key, scope);
    // no event: the record never existed, or is another tenant's (as if it did not exist)
    if (total === 0) throw notFound(request.entity);
    const rows = await ctx.em.execute<EventRow[]>(
      `select event_id, type, occurred_at, actor, version, changes from ${table} where ${recordCondition(table, scope)} order by seq desc limit ? offset ?`,
      [...recordParams(request.entity, request.key, scope), size, page * size],
    );
    return { content: rows.map(toEvent), meta: pageMeta(page, size, total, rows.length) };
  };
  return Object.assign(handler, { roles: new Set(resources.map((resource) => `${resource.path}:read`)) as ReadonlySet<string> });
}

interface EventRow {
  event_id: string;
  type: string;
  occurred_at: Date | string;
  actor: string | null;
  version: number | null;
  changes: Record<string, unknown>;
}

function toEvent(row: EventRow): HistoryEvent {
  return {
    id: row.event_id,
    type: row.type,
    occurredAt: (row.occurred_at instanceof Date ? row.occurred_at : new Date(row.occurred_at)).toISOString(),
    userCode: row.actor ?? undefined,
    version: row.version ?? undefined,
    changes: row.changes,
  };
}

/** Whether the record of `key` is there but outside the caller's read limit. */
async function hidden(em: EntityManager, schema: string, resource: Resource, key: string, scope: number | undefined, limit: ReadLimit): Promise<boolean> {
  const tenant = scope === undefined ? '' : ' and cr_process_id = ?';
  const [row] = await em.execute<unknown[]>(
    `select 1 from "${schema}"."${tableOf(resource)}" where "${snake(keyOf(resource))}"::text = ?${tenant} and not ${limit.sql} limit 1`,
    [key, ...(scope === undefined ? [] : [scope]), ...limit.values],
  );
  return row !== undefined;
}

async function countEvents(em: EntityManager, table: string, entity: string, key: string, scope: number | undefined): Promise<number> {
  const [row] = await em.execute<{ total: string }[]>(
    `select count(*) as total from ${table} where ${recordCondition(table, scope)}`,
    recordParams(entity, key, scope),
  );
  return Number(row?.total ?? 0);
}

/**
 * The events of one record, by the outbox's record index (cr_process_id, entity, entity_key, seq).
 * Within a tenant that is the index's prefix; a super user names no tenant, so the tenants that
 * have events are walked first (a loose index scan: one index probe per tenant) and the record is
 * looked up in each, rather than reading the whole index.
 */
function recordCondition(table: string, scope: number | undefined): string {
  if (scope !== undefined) return 'cr_process_id = ? and entity = ? and entity_key = ?';
  const tenants =
    `with recursive tenants(id) as ((select cr_process_id from ${table} order by cr_process_id limit 1) union all ` +
    `select (select o.cr_process_id from ${table} o where o.cr_process_id > t.id order by o.cr_process_id limit 1) from tenants t where t.id is not null) ` +
    `select id from tenants where id is not null`;
  return `cr_process_id in (${tenants}) and entity = ? and entity_key = ?`;
}

function recordParams(entity: string, key: string, scope: number | undefined): unknown[] {
  return scope === undefined ? [entity, key] : [scope, entity, key];
}

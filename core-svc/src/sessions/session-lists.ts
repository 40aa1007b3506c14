import type { EntityManager, FilterQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import { authorizeOperator, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { buildQuery, pageBounds, pageMeta } from '@platform/service-kit/crud/list-query.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import type { PageActiveSessionsRequest, PageSessionHistoryRequest, PageSessionsResponse, Session } from '@platform/kit/gen/platform/core/v1/session.ts';
import type { ScalarField } from '@platform/kit/resource/resource.ts';
import { SessionEntity } from '../db.ts';
import { toSession } from './session-view.ts';

/** Filters of the active-session list (docs/interface.md#sessions-and-logs). */
const ACTIVE_FILTERS: ReadonlyMap<string, ScalarField> = new Map<string, ScalarField>([
  ['userCode', { kind: 'string', maxLength: 64 }],
  ['accountNo', { kind: 'string', maxLength: 64 }],
  ['crProcessId', { kind: 'long' }],
  ['loginAt', { kind: 'datetime' }],
  ['expiresAt', { kind: 'datetime' }],
]);

/** Open (session-view.ts) and ended, as conditions of a query. */
const openWhere = (): FilterQuery<Row> => ({ active: true, expiresAt: { $gt: new Date() } });
const endedWhere = (): FilterQuery<Row> => ({ $or: [{ active: false }, { expiresAt: { $lte: new Date() } }] });

async function page(
  em: EntityManager,
  where: FilterQuery<Row>,
  orderBy: QueryOrderMap<Row>[],
  bounds: { page: number; size: number },
): Promise<PageSessionsResponse> {
  const [rows, total] = await em.findAndCount(SessionEntity, where, { orderBy, limit: bounds.size, offset: bounds.page * bounds.size });
  return { content: rows.map(toSession), meta: pageMeta(bounds.page, bounds.size, total, rows.length) };
}

/** SessionService.ListActiveSessions: every open session, the latest login first. */
export async function listActiveSessions(_request: unknown, ctx: CallContext): Promise<{ sessions: Session[] }> {
  authorizeOperator(ctx);
  const rows = await ctx.em.find(SessionEntity, openWhere(), { orderBy: [{ loginAt: 'desc' }, { id: 'desc' }], limit: 10_000 });
  return { sessions: rows.map(toSession) };
}

/** SessionService.PageActiveSessions: open sessions a page at a time, filtered and sorted like a resource list. */
export async function pageActiveSessions(request: PageActiveSessionsRequest, ctx: CallContext): Promise<PageSessionsResponse> {
  authorizeOperator(ctx);
  const query = buildQuery(request.page, { fields: ACTIVE_FILTERS, tenant: 'optional', defaultOrder: [{ loginAt: 'desc' }] });
  return page(ctx.em, { $and: [query.where, openWhere()] }, query.orderBy, query);
}

/** SessionService.PageSessionHistory: ended sessions a page at a time, by user and login time. */
export async function pageSessionHistory(request: PageSessionHistoryRequest, ctx: CallContext): Promise<PageSessionsResponse> {
  authorizeOperator(ctx);
  const bounds = pageBounds(request.page, request.size);
  const conditions: FilterQuery<Row>[] = [endedWhere()];
  if (request.userCode) conditions.push({ userCode: request.userCode });
  if (request.from) conditions.push({ loginAt: { $gte: toRowValue('from', { kind: 'datetime' }, request.from) } });
  if (request.to) conditions.push({ loginAt: { $lte: toRowValue('to', { kind: 'datetime' }, request.to) } });
  return page(ctx.em, { $and: conditions }, [{ loginAt: 'desc' }, { id: 'desc' }], bounds);
}

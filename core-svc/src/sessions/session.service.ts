import { randomUUID } from 'node:crypto';
import type { EntityManager, FilterQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import { actorOf, authorizeOperator, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { CoreConfig } from '../config.ts';
import { buildQuery, pageBounds, pageMeta } from '@platform/service-kit/crud/list-query.ts';
import type { ScalarField } from '@platform/kit/resource/resource.ts';
import { isUuid } from '@platform/kit/resource/uuid.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { invalidField, notFound, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { Statistics } from '@platform/kit/gen/platform/common/v1/common.ts';
import type {
  CountSessionsByDayRequest,
  CountSessionsByDayResponse,
  CreateSessionRequest,
  GetSessionRequest,
  PageActiveSessionsRequest,
  PageSessionHistoryRequest,
  PageSessionsResponse,
  RecordSessionsSeenRequest,
  Session,
  UpdateSessionRequest,
} from '@platform/kit/gen/platform/core/v1/session.ts';
import { SessionEntity, UserInfoEntity, UserProcessEntity } from '../db.ts';
import { heldTenant } from '../resources/user-process/user-tenants.ts';
import { endSession } from './session-ended.ts';

/** Filters of the active-session list (docs/interface.md#sessions-and-logs). */
const ACTIVE_FILTERS: ReadonlyMap<string, ScalarField> = new Map<string, ScalarField>([
  ['userCode', { kind: 'string', maxLength: 64 }],
  ['accountNo', { kind: 'string', maxLength: 64 }],
  ['crProcessId', { kind: 'long' }],
  ['loginAt', { kind: 'datetime' }],
  ['expiresAt', { kind: 'datetime' }],
]);

/** Sessions one RecordSessionsSeen call may carry. */
const MAX_SEEN = 10_000;

/** Open: not ended and not past expiresAt (docs/interface.md#sessions-and-logs). */
function isOpen(row: Row, now = new Date()): boolean {
  return row.active === true && (row.expiresAt as Date) > now;
}

const openWhere = (): FilterQuery<Row> => ({ active: true, expiresAt: { $gt: new Date() } });
const endedWhere = (): FilterQuery<Row> => ({ $or: [{ active: false }, { expiresAt: { $lte: new Date() } }] });

export function toSession(row: Row): Session {
  const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : undefined);
  return {
    sessionId: row.sessionId as string,
    userCode: row.userCode as string,
    userProcessId: row.userProcessId as number,
    accountNo: row.accountNo as string,
    crProcessId: row.crProcessId as number,
    ipAddress: (row.ipAddress as string | null) ?? undefined,
    userAgent: (row.userAgent as string | null) ?? undefined,
    projectCode: (row.projectCode as string | null) ?? undefined,
    loginAt: iso(row.loginAt) ?? '',
    lastSeenAt: iso(row.lastSeenAt) ?? '',
    expiresAt: iso(row.expiresAt) ?? '',
    logoutAt: iso(row.logoutAt),
    active: isOpen(row),
  };
}

async function findSession(em: EntityManager, sessionId: string): Promise<Row> {
  if (!isUuid(sessionId)) throw invalidField('sessionId', 'param.invalid', { param: 'sessionId' });
  const row = await em.findOne(SessionEntity, { sessionId });
  if (!row) throw notFound('session');
  return row;
}

function requireInternal(ctx: CallContext): void {
  // The gateway's own bookkeeping: it calls with the internal credential.
  if (ctx.caller.kind !== 'internal') throw unauthenticated();
}

async function page(
  em: EntityManager,
  where: FilterQuery<Row>,
  orderBy: QueryOrderMap<Row>[],
  bounds: { page: number; size: number },
): Promise<PageSessionsResponse> {
  const [rows, total] = await em.findAndCount(SessionEntity, where, { orderBy, limit: bounds.size, offset: bounds.page * bounds.size });
  return { content: rows.map(toSession), meta: pageMeta(bounds.page, bounds.size, total, rows.length) };
}

/**
 * Sessions over the API key (docs/interface.md#sessions-and-logs), or from the console for a live
 * super user (authorizeOperator); RecordSessionsSeen is the gateway's alone.
 */
export function sessionHandlers(config: CoreConfig) {
  return {
    async getSession(request: GetSessionRequest, ctx: CallContext): Promise<Session> {
      authorizeOperator(ctx);
      return toSession(await findSession(ctx.em, request.sessionId));
    },

    async createSession(request: CreateSessionRequest, ctx: CallContext): Promise<Session> {
      authorizeOperator(ctx);
      if (!request.userCode) throw invalidField('userCode', 'field.required');
      if (!request.accountNo) throw invalidField('accountNo', 'field.required');
      const user = await ctx.em.findOne(UserInfoEntity, { userCode: request.userCode });
      const process = user && (await ctx.em.findOne(UserProcessEntity, { userCode: request.userCode }));
      if (!user || !process) throw invalidField('userCode', 'field.reference');
      // a tenant the user holds now (docs/interface.md#identity), as login and switch-account require
      const account = await heldTenant(ctx.em, request.userCode, request.accountNo);
      if (!account) throw invalidField('accountNo', 'field.reference');
      const now = new Date();
      const expiresAt = request.expiresAt
        ? (toRowValue('expiresAt', { kind: 'datetime' }, request.expiresAt) as Date)
        : new Date(now.getTime() + config.jwtTtlSeconds * 1000);
      const row = ctx.em.create(SessionEntity, {
        sessionId: randomUUID(),
        userCode: user.userCode,
        userProcessId: process.id,
        accountNo: account.accountNo,
        crProcessId: account.crProcessId,
        ipAddress: request.ipAddress?.slice(0, 64) ?? null,
        userAgent: request.userAgent?.slice(0, 1000) ?? null,
        projectCode: ctx.projectCode?.slice(0, 100) ?? null,
        loginAt: now,
        lastSeenAt: now,
        expiresAt,
        active: true,
      } as Row);
      await ctx.em.flush();
      return toSession(row);
    },

    async updateSession(request: UpdateSessionRequest, ctx: CallContext): Promise<Session> {
      authorizeOperator(ctx);
      const row = await findSession(ctx.em, request.sessionId);
      if (request.active === false && row.active === true) {
        // ended with its event (session-ended.ts), then read again as ended
        await endSession(ctx.em, request.sessionId, actorOf(ctx));
        await ctx.em.refresh(row);
      }
      if (request.expiresAt !== undefined) row.expiresAt = toRowValue('expiresAt', { kind: 'datetime' }, request.expiresAt);
      if (request.active === true && row.active !== true) {
        row.active = true;
        row.logoutAt = null;
      }
      await ctx.em.flush();
      return toSession(row);
    },

    async listActiveSessions(_request: unknown, ctx: CallContext): Promise<{ sessions: Session[] }> {
      authorizeOperator(ctx);
      const rows = await ctx.em.find(SessionEntity, openWhere(), { orderBy: [{ loginAt: 'desc' }, { id: 'desc' }], limit: 10_000 });
      return { sessions: rows.map(toSession) };
    },

    async pageActiveSessions(request: PageActiveSessionsRequest, ctx: CallContext): Promise<PageSessionsResponse> {
      authorizeOperator(ctx);
      const query = buildQuery(request.page, { fields: ACTIVE_FILTERS, tenant: 'optional', defaultOrder: [{ loginAt: 'desc' }] });
      return page(ctx.em, { $and: [query.where, openWhere()] }, query.orderBy, query);
    },

    async pageSessionHistory(request: PageSessionHistoryRequest, ctx: CallContext): Promise<PageSessionsResponse> {
      authorizeOperator(ctx);
      const bounds = pageBounds(request.page, request.size);
      const conditions: FilterQuery<Row>[] = [endedWhere()];
      if (request.userCode) conditions.push({ userCode: request.userCode });
      if (request.from) conditions.push({ loginAt: { $gte: toRowValue('from', { kind: 'datetime' }, request.from) } });
      if (request.to) conditions.push({ loginAt: { $lte: toRowValue('to', { kind: 'datetime' }, request.to) } });
      return page(ctx.em, { $and: conditions }, [{ loginAt: 'desc' }, { id: 'desc' }], bounds);
    },

    async recordSessionsSeen(request: RecordSessionsSeenRequest, ctx: CallContext): Promise<object> {
      requireInternal(ctx);
      if (request.seen.length > MAX_SEEN) throw invalidField('seen', 'field.outOfRange');
      const seen = request.seen.flatMap(({ sessionId, seenAt }) => {
        const at = new Date(seenAt);
        return isUuid(sessionId) && !Number.isNaN(at.getTime()) ? [{ sid: sessionId, t: at.toISOString() }] : [];
      });
      if (seen.length === 0) return {};
      // Only forward, never past now, and only while the session is open.
      await ctx.em.execute(
        `update core.session_log s set last_seen_at = least(k.t, now())
           from json_to_recordset(?::json) as k(sid uuid, t timestamptz)
          where s.session_id = k.sid and s.active and s.expires_at > now() and k.t > s.last_seen_at`,
        [JSON.stringify(seen)],
      );
      return {};
    },

    // One GROUP BY over the logins since the first day, the days without any filled in by
    // generate_series: a chart of the last weeks reads `days` rows, not the sessions.
    async countSessionsByDay(request: CountSessionsByDayRequest, ctx: CallContext): Promise<CountSessionsByDayResponse> {
      authorizeOperator(ctx);
      const days = request.days ?? 14;
      if (!Number.isInteger(days) || days < 1 || days > 92) throw invalidField('days', 'field.outOfRange');
      const tenant = request.crProcessId === undefined ? '' : 'and cr_process_id = ?';
      const rows = await ctx.em.execute<{ day: string; count: string }[]>(
        `with first as (select (now() at time zone 'utc')::date - (?::int - 1) as day),
         counted as (
           select (login_at at time zone 'utc')::date as day, count(*) as count from core.session_log
            where login_at >= (select day from first) at time zone 'utc' ${tenant} group by 1)
         select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(c.count, 0) as count
           from generate_series((select day from first), (now() at time zone 'utc')::date, interval '1 day') as d(day)
           left join counted c on c.day = d.day::date
          order by d.day`,
        request.crProcessId === undefined ? [days] : [days, request.crProcessId],
      );
      return { days: rows.map((row) => ({ day: row.day, count: Number(row.count) })) };
    },

    async getSessionStats(_request: unknown, ctx: CallContext): Promise<Statistics> {
      authorizeOperator(ctx);
      // One query, so that both counts see the same sessions: counted one after the other, a login
      // between the two counts made passiveCount (total minus open) fall below any true value.
      const [counts] = await ctx.em.execute<{ total: string; open: string }[]>(
        'select count(*) as total, count(*) filter (where active and expires_at > ?) as open from core.session_log',
        [new Date()],
      );
      const total = Number(counts?.total ?? 0);
      const open = Number(counts?.open ?? 0);
      return { totalCount: total, activeCount: open, passiveCount: total - open };
    },
  };
}

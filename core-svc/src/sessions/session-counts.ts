import { authorizeOperator, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import type { Statistics } from '@platform/kit/gen/platform/common/v1/common.ts';
import type { CountSessionsByDayRequest, CountSessionsByDayResponse } from '@platform/kit/gen/platform/core/v1/session.ts';

/**
 * SessionService.CountSessionsByDay: logins per UTC day over the last `days` days (14 unless said),
 * optionally of one tenant. One GROUP BY over the logins since the first day, the days without any
 * filled in by generate_series: a chart of the last weeks reads `days` rows, not the sessions.
 */
export async function countSessionsByDay(request: CountSessionsByDayRequest, ctx: CallContext): Promise<CountSessionsByDayResponse> {
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
}

/** SessionService.GetSessionStats: all sessions, those open now (active) and the rest (passive). */
export async function getSessionStats(_request: unknown, ctx: CallContext): Promise<Statistics> {
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
}

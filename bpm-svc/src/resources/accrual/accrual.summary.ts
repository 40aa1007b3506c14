import { assertTenant, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { AccrualSummary, GetAccrualSummaryRequest } from '@platform/kit/gen/platform/bpm/v1/accrual.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import { accrual } from '@platform/contracts/bpm/accrual.ts';

interface StateRow {
  accrual_status: string;
  currency_code: string;
  count: string;
  amount: string;
}

interface MonthRow {
  month: string;
  currency_code: string;
  count: string;
  amount: string;
}

/**
 * GetAccrualSummary (docs/interface.md#partner-operations): a tenant's accruals counted and summed by
 * state, and by month of periodStart (those not CANCELLED: what is owed over time), each per
 * currency, since amounts of two currencies do not add up. Summed by PostgreSQL (GROUP BY over the
 * tenant's index), so the console's dashboard reads a few rows, not the accruals. Needs
 * accrual:read; crProcessId is required (400 SVC-SYS-2002) and a user who is not a super user may
 * name only its own tenant (403 SVC-SYS-1003). `from` and `to` bound periodStart, both included.
 */
export function accrualSummary() {
  return {
    getAccrualSummary: requiring(roleOf(accrual, 'read'), async (request: GetAccrualSummaryRequest, ctx: CallContext): Promise<AccrualSummary> => {
      const crProcessId = request.crProcessId;
      if (!crProcessId) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
      assertTenant(ctx, crProcessId);
      const where = ['cr_process_id = ?'];
      const params: unknown[] = [crProcessId];
      for (const [name, operator] of [
        ['from', '>='],
        ['to', '<='],
      ] as const) {
        const value = request[name];
        if (value === undefined || value === '') continue;
        where.push(`period_start ${operator} ?`);
        params.push(toRowValue(name, { kind: 'date' }, value));
      }
      const [states, months] = await Promise.all([
        ctx.em.execute<StateRow[]>(
          `select accrual_status, currency_code, count(*) as count, sum(amount)::text as amount from bpm.accrual
           where ${where.join(' and ')} group by accrual_status, currency_code order by accrual_status, currency_code`,
          params,
        ),
        ctx.em.execute<MonthRow[]>(
          `select to_char(date_trunc('month', period_start), 'YYYY-MM') as month, currency_code, count(*) as count, sum(amount)::text as amount
           from bpm.accrual where ${where.join(' and ')} and accrual_status <> 'CANCELLED'
           group by 1, currency_code order by 1, currency_code`,
          params,
        ),
      ]);
      return {
        states: states.map((row) => ({ accrualStatus: row.accrual_status, currencyCode: row.currency_code, count: Number(row.count), amount: row.amount })),
        months: months.map((row) => ({ month: row.month, currencyCode: row.currency_code, count: Number(row.count), amount: row.amount })),
      };
    }),
  };
}

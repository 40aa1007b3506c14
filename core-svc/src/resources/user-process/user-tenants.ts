import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { tenantScope, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { RowOf } from '@platform/service-kit/crud/records.ts';
import { forbidden } from '@platform/kit/errors/domain-error.ts';
import { UserInfoEntity } from '../../db.ts';
import type { userInfo } from '@platform/contracts/core/user-info.ts';

/**
 * The tenants a user reaches through its user-process's selects, as the writes that administer
 * users must see them. Whoever changes a user's selects holds its user-info row FOR UPDATE
 * (`lockUser`), and whoever decides on those selects holds it too, so a decision and a change of
 * selects never interleave.
 */

/** The user-info row of `userCode`, locked until the transaction ends; undefined when none. */
export function lockUser(em: EntityManager, userCode: string, mode: 'update' | 'share' = 'update'): Promise<RowOf<typeof userInfo> | null> {
  return em.findOne(UserInfoEntity, { userCode }, { lockMode: mode === 'update' ? LockMode.PESSIMISTIC_WRITE : LockMode.PESSIMISTIC_READ });
}

const SELECTS = `from core.user_process p
  join core.user_process_select s on s.user_process_id = p.id
  join core.account a on a.id = s.account_id
 where p.user_code = ?`;

/** Whether the user has a select naming an account of tenant `crProcessId`. */
export async function hasSelectIn(em: EntityManager, userCode: string, crProcessId: number): Promise<boolean> {
  const rows = await em.execute(`select 1 ${SELECTS} and a.cr_process_id = ? limit 1`, [userCode, crProcessId]);
  return rows.length > 0;
}

/**
 * 403 SVC-SYS-1003 when a caller who is not a super user would change a user who is not wholly
 * inside the caller's tenant: one with a select for another tenant (its administrators' user, too).
 * Call it with the user's row locked (`lockUser`, or the row the CRUD engine locked for the write).
 */
export async function assertWhollyInTenant(ctx: CallContext, userCode: string): Promise<void> {
  const scope = tenantScope(ctx);
  if (scope === undefined) return;
  const rows = await ctx.em.execute(`select 1 ${SELECTS} and a.cr_process_id <> ? limit 1`, [userCode, scope]);
  if (rows.length > 0) throw forbidden();
}

/** A tenant the user holds now (`core.user_tenant`) by its accountNo: login, switch-account, sessions. */
export async function heldTenant(em: EntityManager, userCode: string, accountNo: string): Promise<{ accountNo: string; crProcessId: number } | undefined> {
  const [row] = await em.execute<{ account_no: string; cr_process_id: string }[]>(
    'select account_no, cr_process_id from core.user_tenant where user_code = ? and account_no = ?',
    [userCode, accountNo],
  );
  return row ? { accountNo: row.account_no, crProcessId: Number(row.cr_process_id) } : undefined;
}

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

/**
 * The user's selects, every tenant's (`core.user_select_tenant`, a view of the owner's): a check
 * of another tenant's selects must see them, which the row-level security policies would hide
 * from a caller of one tenant, and a check that saw none would pass.
 */
const SELECTS = `from core.user_select_tenant a where a.user_code = ?`;

/** Whether the user has a select naming an account of tenant `crProcessId`. */
export async function hasSelectIn(em: EntityManager, userCode: string, crProcessId: number): Promise<boolean> {
  const rows = await em.execute(`select 1 ${SELECTS} and a.cr_process_id = ? limit 1`, [userCode, crProcessId]);
  return rows.length > 0;
}

/**
 * The tenant a user is stored in, whoever asks (`core.user_key`, a view of the owner's): a user the
 * caller cannot see (another tenant's, with no select in the caller's) is named as such, not as
 * unknown, where the answer was always "another tenant's" (403, or "not in this tenant").
 */
export async function storedTenantOf(em: EntityManager, userCode: string): Promise<number | undefined> {
  const [row] = await em.execute<{ cr_process_id: string }[]>('select cr_process_id from core.user_key where user_code = ?', [userCode]);
  return row ? Number(row.cr_process_id) : undefined;
}

/**
 * Accounts by their numbers, every tenant's (`core.account_key`, a view of the owner's): a caller naming another tenant's account in its selects is refused for it
 * (403), not told the account does not exist.
 */
export async function accountsByNo(em: EntityManager, accountNos: readonly string[]): Promise<{ id: number; accountNo: string; crProcessId: number }[]> {
  if (accountNos.length === 0) return [];
  const rows = await em.execute<{ id: string; account_no: string; cr_process_id: string }[]>(
    'select id, account_no, cr_process_id from core.account_key where account_no in (?)',
    [accountNos],
  );
  return rows.map((row) => ({ id: Number(row.id), accountNo: row.account_no, crProcessId: Number(row.cr_process_id) }));
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

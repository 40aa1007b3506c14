import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantScope } from '@platform/service-kit/auth/caller.ts';
import { forbidden, invalidField } from '@platform/kit/errors/domain-error.ts';
import { defineHooks, type ResourceHooks } from '@platform/service-kit/crud/runtime.ts';
import type { UserProcess } from '@platform/kit/gen/platform/core/v1/user_process.ts';
import { UserProcessSelectEntity } from '../../db.ts';
import { accountsByNo, assertWhollyInTenant, lockUser, storedTenantOf } from './user-tenants.ts';
import { userProcess } from '@platform/contracts/core/user-process.ts';

export interface SelectView {
  accountNo: string;
  accountName: string;
  crProcessId: number;
}

/** The selects of user-processes, ordered by accountNo (docs/interface.md#identity), by user-process id. */
export async function selectsOf(em: EntityManager, userProcessIds: readonly number[]): Promise<Map<number, SelectView[]>> {
  const byProcess = new Map<number, SelectView[]>();
  if (userProcessIds.length === 0) return byProcess;
  const rows = await em.execute<{ user_process_id: string; account_no: string; account_name: string; cr_process_id: string }[]>(
    // every tenant's account of the selects (a view of the owner's, user-tenants.ts): a user-process
    // shows all of its selects to whoever may read it, as it always has
    `select s.user_process_id, s.account_no, s.account_name, s.cr_process_id
       from core.user_select_tenant s
      where s.user_process_id in (?) order by s.account_no`,
    [userProcessIds],
  );
  for (const row of rows) {
    const id = Number(row.user_process_id);
    const list = byProcess.get(id) ?? [];
    list.push({ accountNo: row.account_no, accountName: row.account_name, crProcessId: Number(row.cr_process_id) });
    byProcess.set(id, list);
  }
  return byProcess;
}

/** The selects a write replaced (account numbers, sorted; from null on a create), from afterWrite to the event of the same write. */
const selectChanges = new WeakMap<object, { from: string[] | null; to: string[] }>();

function requestedAccountNos(input: UserProcess): string[] {
  const selects = input.userProcessSelects;
  const accountNos = selects.map((select, index) => {
    const accountNo = select.accountNo;
    if (typeof accountNo !== 'string' || accountNo === '') throw invalidField(`userProcessSelects[${index}].accountNo`, 'field.required');
    return accountNo;
  });
  return [...new Set(accountNos)];
}

/**
 * user-process: the user must exist (and, for a caller who is not a super user, be stored in the
 * caller's tenant; the foreign key user_process_user_code_foreign keeps the user there, and refuses
 * deleting it); userCode never changes. Selects name existing accounts and are kept in their own
 * table. A caller who is not a super user may name only its current tenant's account (else 403),
 * and may change or delete a user-process only while all of the user's selects are of its tenant.
 * Every write holds the user's user-info row FOR UPDATE (lockUser), so user-info writes that decide
 * on the selects see them as they are.
 *
 * The selects are not columns of the record, so its event names them itself: `userProcessSelects`
 * `{from, to}` (account numbers) when a write changed them, and an update that removes one is the
 * move `user-process.select-removed` (its event in place of `user-process.updated`).
 */
export const userProcessHooks: ResourceHooks = defineHooks(userProcess, {
  async beforeWrite(values, input, ctx, _mode, current) {
    requestedAccountNos(input);
    const userCode = current?.userCode ?? values.userCode;
    if (userCode === undefined) throw invalidField('userCode', 'field.required');
    const user = await lockUser(ctx.em, userCode);
    // a user the caller cannot see is another tenant's (docs/adr/0151-row-level-security-the-second-wall.md), or none
    if (!user) throw (await storedTenantOf(ctx.em, userCode)) === undefined ? invalidField('userCode', 'user.unknown') : forbidden();
    if (current) return assertWhollyInTenant(ctx, current.userCode);
    const scope = tenantScope(ctx);
    if (scope !== undefined && user.crProcessId !== scope) throw forbidden();
    if (values.userDescription === undefined) values.userDescription = user.userDescription;
  },
  async afterWrite(row, input, ctx, mode, written) {
    if (mode === 'update' && !written.has('userProcessSelects')) return;
    const accountNos = requestedAccountNos(input);
    if (mode === 'update' && accountNos.length === 0) throw invalidField('userProcessSelects', 'field.required');
    const accounts = await accountsByNo(ctx.em, accountNos);
    if (accounts.length !== accountNos.length) throw invalidField('userProcessSelects', 'field.reference');
    // A caller who is not a super user grants access to its own tenant only (and all the user's
    // selects are of that tenant already: beforeWrite).
    const scope = tenantScope(ctx);
    if (scope !== undefined && accounts.some((account) => account.crProcessId !== scope)) throw forbidden();
    const before = mode === 'update' ? ((await selectsOf(ctx.em, [row.id])).get(row.id) ?? []).map((select) => select.accountNo).sort() : undefined;
    selectChanges.set(row, { from: before ?? null, to: accounts.map((account) => account.accountNo).sort() });
    await ctx.em.nativeDelete(UserProcessSelectEntity, { userProcessId: row.id });
    for (const account of accounts) ctx.em.create(UserProcessSelectEntity, { userProcessId: row.id, accountId: account.id });
    await ctx.em.flush();
  },
  event(_mode, _before, after) {
    const change = selectChanges.get(after);
    if (!change) return undefined;
    selectChanges.delete(after);
    const from = change.from ?? [];
    if (from.length === change.to.length && from.every((accountNo, i) => accountNo === change.to[i])) return undefined;
    const removed = from.some((accountNo) => !change.to.includes(accountNo));
    return { ...(removed ? { type: 'user-process.select-removed' } : {}), changes: { userProcessSelects: change } };
  },
  async beforeDelete(row, ctx) {
    await lockUser(ctx.em, row.userCode);
    await assertWhollyInTenant(ctx, row.userCode);
  },
  async decorate(rows, messages, ctx) {
    const selects = await selectsOf(
      ctx.em,
      rows.map((row) => row.id),
    );
    rows.forEach((row, index) => {
      const message = messages[index];
      if (message) message.userProcessSelects = selects.get(row.id) ?? [];
    });
  },
});

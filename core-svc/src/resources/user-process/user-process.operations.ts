import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantScope } from '@platform/libs/auth/caller.ts';
import { forbidden, invalidField } from '@platform/libs/errors/domain-error.ts';
import type { Message, ResourceHooks } from '@platform/libs/crud/handlers.ts';
import type { Row } from '@platform/libs/db/entity-schema.ts';
import { AccountEntity, UserInfoEntity, UserProcessSelectEntity } from '../../db.ts';

export interface SelectView {
  accountNo: string;
  accountName: string;
  crProcessId: number;
}

/** The selects of user-processes, ordered by accountNo (decisions.md §9), by user-process id. */
export async function selectsOf(em: EntityManager, userProcessIds: readonly number[]): Promise<Map<number, SelectView[]>> {
  const byProcess = new Map<number, SelectView[]>();
  if (userProcessIds.length === 0) return byProcess;
  const rows = await em.execute<{ user_process_id: string; account_no: string; account_name: string; cr_process_id: string }[]>(
    `select s.user_process_id, a.account_no, a.account_name, a.cr_process_id
       from core.user_process_select s join core.account a on a.id = s.account_id
      where s.user_process_id in (?) order by a.account_no`,
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

function requestedAccountNos(input: Message): string[] {
  const selects = Array.isArray(input.userProcessSelects) ? (input.userProcessSelects as Message[]) : [];
  const accountNos = selects.map((select, index) => {
    const accountNo = select.accountNo;
    if (typeof accountNo !== 'string' || accountNo === '') throw invalidField(`userProcessSelects[${index}].accountNo`, 'field.required');
    return accountNo;
  });
  return [...new Set(accountNos)];
}

/**
 * user-process: the user must exist; selects name existing accounts and are kept in their own
 * table. A user who is not a super user may name only its current tenant's account (else 403).
 */
export const userProcessHooks: ResourceHooks = {
  async beforeWrite(values, input, ctx, mode) {
    if (values.userCode !== undefined) {
      const user = await ctx.em.findOne(UserInfoEntity, { userCode: values.userCode });
      if (!user) throw invalidField('userCode', 'field.reference');
      if (mode === 'create' && values.userDescription === undefined) values.userDescription = user.userDescription;
    }
    requestedAccountNos(input);
  },
  async afterWrite(row, input, ctx, mode, written) {
    if (mode === 'update' && !written.has('userProcessSelects')) return;
    const accountNos = requestedAccountNos(input);
    if (mode === 'update' && accountNos.length === 0) throw invalidField('userProcessSelects', 'field.required');
    const accounts = await ctx.em.find(AccountEntity, { accountNo: { $in: accountNos } });
    if (accounts.length !== accountNos.length) throw invalidField('userProcessSelects', 'field.reference');
    // A user who is not a super user grants access to its own tenant only, and leaves the user's
    // selects of other tenants as they are.
    const scope = tenantScope(ctx);
    if (scope !== undefined && accounts.some((account) => account.crProcessId !== scope)) throw forbidden();
    const replaced = scope === undefined ? {} : { accountId: { $in: (await ctx.em.find(AccountEntity, { crProcessId: scope })).map((a) => a.id) } };
    await ctx.em.nativeDelete(UserProcessSelectEntity, { userProcessId: row.id, ...replaced });
    for (const account of accounts) ctx.em.create(UserProcessSelectEntity, { userProcessId: row.id, accountId: account.id } as Row);
    await ctx.em.flush();
  },
  async decorate(rows, messages, ctx) {
    const selects = await selectsOf(ctx.em, rows.map((row) => row.id as number));
    rows.forEach((row, index) => {
      const message = messages[index];
      if (message) message.userProcessSelects = selects.get(row.id as number) ?? [];
    });
  },
};

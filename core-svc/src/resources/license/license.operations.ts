import { actorOf, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { toMessage } from '@platform/service-kit/crud/handlers.ts';
import { defineHooks, type ResourceHooks } from '@platform/service-kit/crud/runtime.ts';
import type { RowOf } from '@platform/service-kit/crud/records.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { AccountEntity, LicenseHistoryEntity } from '../../db.ts';
import { license } from '@platform/contracts/core/license.ts';

type Action = 'CREATE' | 'UPDATE' | 'DELETE';

/**
 * license: `accountNo` names an account of the licence's own tenant (its foreign key keeps the
 * account; an account's crProcessId never changes, so the check cannot be raced), and every create,
 * update and delete appends one license-history row with the licence's snapshot, in the same
 * transaction: a write that fails leaves no history, and no change goes unrecorded.
 */
export const licenseHooks: ResourceHooks = defineHooks(license, {
  async beforeWrite(values, _input, ctx, _mode, current) {
    const accountNo = values.accountNo;
    if (accountNo === undefined || accountNo === null) return;
    const account = await ctx.em.findOne(AccountEntity, { accountNo });
    if (!account || account.crProcessId !== (current?.crProcessId ?? values.crProcessId)) throw invalidField('accountNo', 'field.reference');
  },
  async afterWrite(row, _input, ctx, mode) {
    record(ctx, row, mode === 'create' ? 'CREATE' : 'UPDATE');
    await ctx.em.flush();
  },
  async beforeDelete(row, ctx) {
    // flushed with the delete itself
    record(ctx, row, 'DELETE');
  },
});

function record(ctx: CallContext, row: RowOf<typeof license>, action: Action): void {
  const now = new Date();
  const actor = actorOf(ctx);
  ctx.em.create(LicenseHistoryEntity, {
    crProcessId: row.crProcessId,
    status: true,
    version: 0,
    createdAt: now,
    updatedAt: now,
    createdBy: actor,
    updatedBy: actor,
    licenseId: row.id,
    action,
    snapshot: JSON.stringify(toMessage(license, row)),
    changedBy: actor,
    changedAt: now,
  });
}

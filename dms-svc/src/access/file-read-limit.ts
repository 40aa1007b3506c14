import { tenantScope, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { ReadLimit } from '@platform/service-kit/crud/read-limit.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { categoryIdArray, fileCategoryReadable, unreadableCategoryIds } from './readable-categories.ts';

/**
 * The files a caller may read in its tenant (docs/adr/0160-a-category-s-read-role.md): those
 * without a category or in one it may read. Undefined for a super user, another platform service,
 * and a tenant where no category the caller lacks a role for names one: nothing is limited.
 *
 * @example
 * const limit = await fileReadLimit(ctx); // { where: { $or: [...] }, sql: '(category_id is null or ...)', values: ['{12,15}'] }
 */
export async function fileReadLimit(ctx: CallContext): Promise<ReadLimit | undefined> {
  const tenant = tenantScope(ctx);
  if (tenant === undefined) return undefined;
  const hidden = await unreadableCategoryIds(ctx.em, ctx, tenant);
  if (hidden.length === 0) return undefined;
  return {
    where: { $or: [{ categoryId: null }, { categoryId: { $nin: hidden } }] },
    sql: fileCategoryReadable('category_id', '?'),
    values: [categoryIdArray(hidden)],
  };
}

/**
 * Refuses a file's category the caller may not read as one that does not exist: 400 SVC-SYS-2001
 * on `categoryId`, the answer for a category of another tenant or of none (docs/interface.md#records),
 * so that a write tells nothing of a category whose files it hides. For an upload, an update and a
 * category move alike: a file is never filed where its writer could no longer read it.
 *
 * @example
 * await assertCategoryReadable(ctx, 1001, values.categoryId);
 */
export async function assertCategoryReadable(ctx: CallContext, crProcessId: number, categoryId: unknown): Promise<void> {
  if (typeof categoryId !== 'number') return;
  const hidden = await unreadableCategoryIds(ctx.em, ctx, crProcessId);
  if (hidden.includes(categoryId)) throw invalidField('categoryId', 'field.reference');
}

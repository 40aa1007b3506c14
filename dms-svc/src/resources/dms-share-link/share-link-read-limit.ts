import { raw } from '@mikro-orm/postgresql';
import { tenantScope, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { ReadLimit } from '@platform/service-kit/crud/read-limit.ts';
import { categoryIdArray, unreadableCategoryIds } from '../../access/readable-categories.ts';

/**
 * The share links a caller may read: those of files it may read
 * (docs/adr/0160-a-category-s-read-role.md). A link carries its token, and so the file's bytes: a
 * link to a file in a category the caller may not read is, to it, not there (404, left out of
 * lists and statistics), as the file is. Undefined where nothing is hidden.
 *
 * @example
 * const limit = await shareLinkReadLimit(ctx); // { sql: 'file_id not in (select id from dms.dms_file where …)', … }
 */
export async function shareLinkReadLimit(ctx: CallContext): Promise<ReadLimit | undefined> {
  const tenant = tenantScope(ctx);
  if (tenant === undefined) return undefined;
  const hidden = await unreadableCategoryIds(ctx.em, ctx, tenant);
  if (hidden.length === 0) return undefined;
  const files = 'select id from dms.dms_file where cr_process_id = ? and category_id = any(?::bigint[])';
  const values = [tenant, categoryIdArray(hidden)];
  return { where: { fileId: { $nin: raw(files, values) } }, sql: `file_id not in (${files})`, values };
}

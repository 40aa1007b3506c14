import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { unreadableCategoryIds } from '../../access/readable-categories.ts';

/**
 * Refuses a share link's fileId that names a soft-deleted file, or one in a category the caller may
 * not read (docs/adr/0160-a-category-s-read-role.md): 400 SVC-SYS-2001 on fileId, as for another
 * tenant's file: the API shows none of them. It holds the file's row FOR SHARE until the write
 * commits. A soft delete is an UPDATE of that row, which FOR SHARE holds off (FOR KEY SHARE would
 * not: an update of no key column takes only FOR NO KEY UPDATE), so a delete that comes first is
 * seen here (a locking read waits for it and reads the row it committed) and one that comes after
 * waits for the link's commit: no link is ever made for, or moved to, a file already deleted. A file
 * that does not exist or is another tenant's is left to the foreign key (docs/adr/0028-documents-categories-settings.md).
 */
export async function lockLiveFile(ctx: CallContext, crProcessId: number, fileId: number): Promise<void> {
  const [file] = await ctx.em.execute<{ deleted: boolean; category_id: string | null }[]>(
    'select deleted, category_id from dms.dms_file where cr_process_id = ? and id = ? for share',
    [crProcessId, fileId],
  );
  if (file?.deleted === true) throw invalidField('fileId', 'field.reference');
  if (file?.category_id == null) return;
  const hidden = await unreadableCategoryIds(ctx.em, ctx, crProcessId);
  if (hidden.includes(Number(file.category_id))) throw invalidField('fileId', 'field.reference');
}

import { allows, tenantScope } from '@platform/service-kit/auth/caller.ts';
import { defineHooks } from '@platform/service-kit/crud/runtime.ts';
import { dmsAuditLog } from '@platform/contracts/dms/dms-audit-log.ts';
import { DmsFileEntity } from '../db.ts';
import { unreadableCategoryIds } from '../access/readable-categories.ts';

const FILE_READ = 'dms-file:read';

/**
 * dms-audit-log: every row going out (get, list) names its file, `fileName` being the file's
 * original name, read for the whole page in one query. A deleted file's record is kept and still
 * names it; a purged one's is gone, and the row then carries no name. The name is not part of the
 * row, so the hash chain does not cover it. A file's name is a file's content to the roles: it is
 * shown to whoever may read files now (dms-file:read, on the call's live access), and only for
 * the files it may read (a category's readRole: docs/adr/0160-a-category-s-read-role.md).
 */
export const auditLogHooks = defineHooks(dmsAuditLog, {
  decorateReads: [FILE_READ],
  async decorate(rows, messages, ctx) {
    if (!allows(ctx, FILE_READ)) return;
    const ids = [...new Set(rows.flatMap((row) => (row.fileId == null ? [] : [Number(row.fileId)])))];
    if (ids.length === 0) return;
    const files = await ctx.em.find(DmsFileEntity, { id: { $in: ids } }, { fields: ['id', 'originalFileName', 'categoryId'] });
    const tenant = tenantScope(ctx);
    const hidden = new Set(tenant === undefined ? [] : await unreadableCategoryIds(ctx.em, ctx, tenant));
    const names = new Map(
      files.filter((file) => file.categoryId == null || !hidden.has(Number(file.categoryId))).map((file) => [Number(file.id), file.originalFileName]),
    );
    rows.forEach((row, i) => {
      const name = row.fileId == null ? undefined : names.get(Number(row.fileId));
      const message = messages[i];
      if (message && name) message.fileName = name;
    });
  },
});

import { defineHooks } from '@platform/service-kit/crud/runtime.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { appendAudit, auditActor } from '../../audit/append-audit.ts';
import { recordUrlExpiry, type DownloadSigner } from '../../files/download-signature.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { lockOf } from '@platform/contracts/record-locks.ts';
import { assertCategoryReadable, fileReadLimit } from '../../access/file-read-limit.ts';

/**
 * dms-file:
 * - every record going out (get, list, update, the extra RPCs) carries `downloadUrl`: an attachment
 *   URL signed by the one signer, expiring at the end of the next TTL window (see recordUrlExpiry),
 *   so that two reads of an unchanged record are equal;
 * - an update appends an UPDATE audit row (details: the fields written, and `legalHold` when it was
 *   one of them), a delete a DELETE row, each in the write's transaction (docs/interface.md#files, docs/interface.md#records);
 * - a file under legal hold is not deleted, as libs/contracts/src/record-locks.ts declares: 409
 *   SVC-SYS-4004 (a state the file must leave first;
 *   the hold is lifted by an update, `legalHold: false`). The row is locked, so a delete and a
 *   concurrent update of the hold are ordered;
 * - an update that sets or lifts the hold is the move `dms-file.legal-hold-set` /
 *   `dms-file.legal-hold-released` (its event in place of `dms-file.updated`, with every field the
 *   update changed);
 * - a file in a category the caller may not read (a category's readRole:
 *   docs/adr/0160-a-category-s-read-role.md) is, to that caller, not there (`readLimit`), and an
 *   update naming such a category is refused as for a category that does not exist.
 */
export function dmsFileHooks(signer: DownloadSigner, ttlSeconds: number) {
  return defineHooks(dmsFile, {
    readLimit: fileReadLimit,
    async beforeWrite(values, _input, ctx, _mode, current) {
      if (current) await assertCategoryReadable(ctx, current.crProcessId, values.categoryId);
    },
    async decorate(rows, messages) {
      const expires = recordUrlExpiry(ttlSeconds);
      rows.forEach((row, i) => {
        const message = messages[i];
        if (message) message.downloadUrl = signer.sign(row.id, expires, false).url;
      });
    },
    async afterWrite(row, _input, ctx, _mode, written) {
      const changed = [...written].filter((name) => name !== 'version').sort();
      await appendAudit(ctx.em, row.crProcessId, {
        action: 'UPDATE',
        ...auditActor(ctx),
        fileId: row.id,
        details: { changed, ...(written.has('legalHold') ? { legalHold: row.legalHold } : {}) },
      });
    },
    event(mode, before, after) {
      if (mode !== 'update' || !before || before.legalHold === after.legalHold) return undefined;
      return { type: after.legalHold ? 'dms-file.legal-hold-set' : 'dms-file.legal-hold-released' };
    },
    async beforeDelete(row, ctx) {
      if (lockOf(dmsFile.path, 'delete', row)) throw new DomainError('SVC-SYS-4004', 'file.legalHold');
      await appendAudit(ctx.em, row.crProcessId, { action: 'DELETE', ...auditActor(ctx), fileId: row.id, details: { originalFileName: row.originalFileName } });
    },
  });
}

import { actorOf, tenantScope, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { roleOf, toMessages } from '@platform/service-kit/crud/handlers.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { findVisible, liveOnly } from '@platform/service-kit/crud/key-read.ts';
import { constraintViolation } from '@platform/service-kit/crud/constraint-violation.ts';
import { changesOf } from '@platform/service-kit/crud/changes.ts';
import { keyText, recordEvent } from '@platform/service-kit/events/outbox.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import type {
  GetDmsFileDownloadUrlRequest,
  ListDmsFilesByEntityRequest,
  MoveDmsFileToCategoryRequest,
  SearchDmsFilesRequest,
} from '@platform/kit/gen/platform/dms/v1/dms_file.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import { appendAudit, auditActor } from '../../audit/append-audit.ts';
import type { DownloadSigner } from '../../files/download-signature.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { limited, readLimitOf } from '@platform/service-kit/crud/read-limit.ts';
import { assertCategoryReadable } from '../../access/file-read-limit.ts';
import { searchFiles } from './search-files.ts';

/**
 * GetDmsFileDownloadUrl, ListDmsFilesByEntity, SearchDmsFiles, MoveDmsFileToCategory
 * (docs/interface.md#files): reads need dms-file:read, the move dms-file:write;
 * another tenant's file, like a soft-deleted one or one in a category the caller may not read
 * (docs/adr/0160-a-category-s-read-role.md), is 404 or left out. The move names a category of the
 * file's tenant that the caller may read (else 400 SVC-SYS-2001 on categoryId, as for one that does
 * not exist) and appends a MOVE audit row (details: from, to) and its `dms-file.moved` event in its
 * transaction.
 */
export function dmsFileOperations(signer: DownloadSigner, ttlSeconds: number) {
  return (runtimes: ReadonlyMap<string, ResourceRuntime>) => {
    const rt = runtimes.get(dmsFile.path);
    if (!rt) throw new Error('dms-file operations need the dms-file runtime');
    return {
      getDmsFileDownloadUrl: requiring(roleOf(dmsFile, 'read'), async (request: GetDmsFileDownloadUrlRequest, ctx: CallContext) => {
        const row = await findVisible(rt, ctx.em, ctx, request.id);
        // the URL names who asked for it, and its download is audited as them
        return signer.sign(Number(row.id), Math.floor(Date.now() / 1000) + ttlSeconds, request.inline === true, actorOf(ctx));
      }),
      listDmsFilesByEntity: requiring(roleOf(dmsFile, 'read'), async (request: ListDmsFilesByEntityRequest, ctx: CallContext) => {
        const entityType = toRowValue('entityType', { kind: 'string', maxLength: 64, required: true }, request.entityType);
        const entityId = toRowValue('entityId', { kind: 'long' }, request.entityId);
        const scope = tenantScope(ctx);
        const where = { entityType, entityId, ...liveOnly(dmsFile), ...(scope === undefined ? {} : { crProcessId: scope }) };
        const rows = await ctx.em.find(rt.entity, limited(where, await readLimitOf(rt, ctx)), { orderBy: { id: 'asc' } });
        return { files: await toMessages(rt, rows, ctx) };
      }),
      searchDmsFiles: requiring(roleOf(dmsFile, 'read'), (request: SearchDmsFilesRequest, ctx: CallContext) => searchFiles(rt, request, ctx)),
      moveDmsFileToCategory: requiring(roleOf(dmsFile, 'write'), async (request: MoveDmsFileToCategoryRequest, ctx: CallContext) => {
        if (!request.categoryId) throw invalidField('categoryId', 'field.required');
        const categoryId = toRowValue('categoryId', { kind: 'long', min: 1 }, request.categoryId);
        const row = await ctx.em.transactional(async (em) => {
          const current = await findVisible(rt, em, { ...ctx, em }, request.id, true);
          await assertCategoryReadable({ ...ctx, em }, Number(current.crProcessId), categoryId);
          const from = current.categoryId ?? null;
          const before = { ...current };
          Object.assign(current, { categoryId, version: Number(current.version) + 1, updatedAt: new Date(), updatedBy: actorOf(ctx) });
          try {
            await em.flush();
          } catch (error) {
            throw constraintViolation(rt.resource, error) ?? error;
          }
          await appendAudit(em, Number(current.crProcessId), {
            action: 'MOVE',
            ...auditActor(ctx),
            fileId: Number(current.id),
            details: { from, to: categoryId },
          });
          await recordEvent(em, {
            type: 'dms-file.moved',
            crProcessId: Number(current.crProcessId),
            key: keyText(rt.resource, current),
            version: Number(current.version),
            actor: actorOf(ctx),
            changes: changesOf(rt.resource, before, current),
          });
          return current;
        });
        const [message] = await toMessages(rt, [row], ctx);
        return message ?? {};
      }),
    };
  };
}

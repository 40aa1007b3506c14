import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { actorOf, assertTenant } from '@platform/service-kit/auth/caller.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { changesOf } from '@platform/service-kit/crud/changes.ts';
import { constraintViolation } from '@platform/service-kit/crud/constraint-violation.ts';
import { keyText, recordEvent } from '@platform/service-kit/events/outbox.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { appendAudit } from '../audit/append-audit.ts';
import type { ClientAddress } from '../http/client-address.ts';
import type { UploadScanner } from '../scan/upload-scanner.ts';
import type { FileTexts } from '../text/file-texts.ts';
import type { ReceivedUpload } from './receive-upload.ts';
import { assertFileFits, assertQuota, limitsOf } from './tenant-limits.ts';
import { formValues } from './upload-fields.ts';
import { assertCategoryReadable } from '../access/file-read-limit.ts';
import { releaseUpload } from './upload-reservations.ts';
import { claimKey, idempotentRequestOf, keepAnswer } from '@platform/service-kit/idempotency/idempotency.ts';
import type { EntityManager } from '@mikro-orm/postgresql';

/** The upload response (docs/interface.md#files) and, beyond it, the live file of the tenant with the same bytes. */
export interface UploadResponse {
  fileId: number;
  originalFileName: string;
  storedFileName: string;
  fileSize: number;
  mimeType: string;
  uploadDate: string;
  duplicateOfFileId?: number;
}

/**
 * Makes a received upload a dms-file of the tenant its form names (a user who is not a super user
 * may name only its own: 403 SVC-SYS-1003), within the tenant's limits (docs/interface.md#files:
 * maxFileSize 413 SVC-SYS-3001, allowedMimeTypes against the sniffed type 415 SVC-SYS-3002,
 * storageQuotaBytes 413 SVC-SYS-3007, re-checked under the tenant's quota lock; a resumable upload's
 * reservation is deleted first, in the same transaction, so its length is not counted twice). The row, its UPLOAD
 * audit row, its `dms-file.uploaded` event (the create of the record) and the staged bytes' commit
 * under their generated stored name (storage.ts: the local store's rename) happen inside one
 * transaction, so a stored file is kept only for a committed, audited row. The bytes are durable
 * before the transaction begins, and under their name before it commits: a committed row's file
 * survives a crash of the machine as the row does. A failure before the commit (a refusal included)
 * removes the staged bytes wherever they are (docs/adr/0144-files-on-s3-compatible-storage.md).
 *
 * Every upload, of whichever kind, is scanned here by `scanner` before the transaction
 * (docs/adr/0095-virus-scanning-in-storeupload-before.md): malware is 422 SVC-SYS-2001 `upload.infected` on the field `file`, its
 * UPLOAD_REFUSED audit row (with the signature) committed alone, and nothing else kept — no row, no
 * bytes, no event, no idempotency key, so a retry is scanned again. The scanner answers its own
 * failures (413, 503) and, under CLAMD_FAIL_OPEN, lets an unscanned upload on.
 *
 * Under an Idempotency-Key (docs/interface.md#idempotent-requests) the key is claimed first in that
 * transaction, and the answer kept with it: a repeat of the upload (the same bytes, file name and
 * fields) waits for the first one and is given its answer, its own bytes removed; another upload
 * under the key is 422 and keeps nothing.
 */
export async function storeUpload(
  rt: ResourceRuntime,
  ctx: CallContext,
  upload: ReceivedUpload,
  client: ClientAddress,
  scanner: UploadScanner,
  texts: FileTexts,
): Promise<UploadResponse> {
  const storedFileName = upload.staged.storedFileName;
  const now = new Date();
  try {
    const values = formValues(upload.fields);
    assertTenant(ctx, values.crProcessId);
    // a category whose files the uploader may not read is, to it, none (docs/adr/0160-a-category-s-read-role.md)
    await assertCategoryReadable(ctx, values.crProcessId, values.categoryId);
    const idempotent = idempotentRequestOf(ctx, `${rt.resource.path}.upload`, {
      checksum: upload.checksum,
      originalFileName: upload.originalFileName,
      fields: Object.fromEntries(upload.fields),
    });
    const actor = actorOf(ctx);
    const crProcessId = values.crProcessId;
    // before anything is written: the bytes of an infected upload go no further than their staging
    const scan = await scanner.scan(upload, { userCode: actor, crProcessId });
    if (scan.verdict === 'infected') {
      await ctx.em.transactional((em) =>
        appendAudit(em, crProcessId, {
          action: 'UPLOAD_REFUSED',
          userCode: actor,
          ...client,
          details: {
            reason: 'infected',
            signature: scan.signature,
            originalFileName: upload.originalFileName,
            fileSize: upload.fileSize,
            checksum: upload.checksum,
          },
        }),
      );
      throw new DomainError('SVC-SYS-2001', 'upload.infected', { field: 'file' });
    }
    // outside the transaction: a gigabyte's flush (or a finished resumable upload's copy into the bucket) takes seconds, and the quota lock is the tenant's
    await upload.staged.flush();
    const answer = await ctx.em.transactional(async (em): Promise<{ replay: boolean; response: UploadResponse }> => {
      if (idempotent) {
        // first: a repeat of the request waits here for the first one, then writes nothing
        const claim = await claimKey(em, idempotent);
        if (claim.replay) return { replay: true, response: claim.answer as UploadResponse };
      }
      // a resumable upload's reservation ends with this transaction: its length counts once, as the file
      if (upload.reservation !== undefined) await releaseUpload(em, upload.reservation);
      const limits = await limitsOf(em, crProcessId);
      assertFileFits(limits, upload.fileSize, upload.mimeType);
      await assertQuota(em, crProcessId, limits.storageQuotaBytes, upload.fileSize);
      const created = em.create(rt.entity, {
        ...values,
        version: 0,
        status: true,
        deleted: false,
        originalFileName: upload.originalFileName,
        storedFileName,
        fileSize: upload.fileSize,
        mimeType: upload.mimeType,
        checksum: upload.checksum,
        uploadDate: now,
        createdAt: now,
        updatedAt: now,
        createdBy: actor,
        updatedBy: actor,
      });
      try {
        await em.flush();
      } catch (error) {
        // categoryId names no category of the tenant: 400 SVC-SYS-2001 on categoryId
        throw constraintViolation(rt.resource, error) ?? error;
      }
      const fileId = Number(created.id);
      await texts.add(em, fileId, crProcessId);
      await appendAudit(em, crProcessId, {
        action: 'UPLOAD',
        userCode: actor,
        fileId,
        ...client,
        details: { originalFileName: upload.originalFileName, fileSize: upload.fileSize, mimeType: upload.mimeType, checksum: upload.checksum },
      });
      await recordEvent(em, {
        type: 'dms-file.uploaded',
        crProcessId,
        key: keyText(rt.resource, created),
        version: 0,
        actor,
        changes: changesOf(rt.resource, undefined, created),
      });
      const duplicate = await duplicateOf(em, rt, crProcessId, upload.checksum, fileId);
      const response: UploadResponse = {
        fileId,
        originalFileName: upload.originalFileName,
        storedFileName,
        fileSize: upload.fileSize,
        mimeType: upload.mimeType,
        uploadDate: now.toISOString(),
        ...(duplicate === undefined ? {} : { duplicateOfFileId: duplicate }),
      };
      if (idempotent) await keepAnswer(em, idempotent, response);
      await upload.staged.commit();
      return { replay: false, response };
    });
    // a repeat keeps none of its bytes: the first upload's file is the one
    if (answer.replay) {
      await upload.staged.discard();
      ctx.markReplayed?.();
    } else texts.send(answer.response.fileId);
    return answer.response;
  } catch (error) {
    await upload.staged.discard();
    throw error;
  }
}

/** The first other live file of the tenant with the same bytes, if any. */
async function duplicateOf(em: EntityManager, rt: ResourceRuntime, crProcessId: number, checksum: string, fileId: number): Promise<number | undefined> {
  const meta = em.getMetadata(rt.entity);
  const [duplicate] = await em.execute<{ id: string }[]>(
    `select id from "${meta.schema}"."${meta.tableName}" where cr_process_id = ? and checksum = ? and not deleted and id <> ? order by id limit 1`,
    [crProcessId, checksum, fileId],
  );
  return duplicate ? Number(duplicate.id) : undefined;
}

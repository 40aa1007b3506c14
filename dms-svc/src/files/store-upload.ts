import { rename, unlink } from 'node:fs/promises';
import type { CallContext } from '@platform/libs/auth/caller.ts';
import { actorOf, assertTenant } from '@platform/libs/auth/caller.ts';
import type { ResourceRuntime } from '@platform/libs/crud/handlers.ts';
import type { FileStorage } from './storage.ts';
import type { ReceivedUpload } from './receive-upload.ts';
import { formValues } from './upload-fields.ts';

/** The upload response (platform-interface.md §4.6) and, beyond it, the live file of the tenant with the same bytes. */
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
 * may name only its own: 403 SVC-SYS-1003): the row is inserted and the temporary file renamed to
 * its generated stored name inside one transaction, so the stored file exists only for a committed
 * row. A failure before the commit removes whichever of the two names the bytes are under.
 */
export async function storeUpload(rt: ResourceRuntime, storage: FileStorage, ctx: CallContext, upload: ReceivedUpload): Promise<UploadResponse> {
  const storedFileName = storage.newStoredName();
  const storedPath = storage.pathOf(storedFileName);
  let values: ReturnType<typeof formValues>;
  let row: Record<string, unknown>;
  const now = new Date();
  try {
    values = formValues(upload.fields);
    assertTenant(ctx, values.crProcessId);
    const actor = actorOf(ctx);
    row = await ctx.em.transactional(async (em) => {
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
      await em.flush();
      await rename(upload.temporaryPath, storedPath);
      return created;
    });
  } catch (error) {
    await unlink(upload.temporaryPath).catch(() => undefined);
    await unlink(storedPath).catch(() => undefined);
    throw error;
  }
  const fileId = Number(row.id);
    const meta = ctx.em.getMetadata(rt.entity);
    const [duplicate] = await ctx.em.execute<{ id: string }[]>(
      `select id from "${meta.schema}"."${meta.tableName}" where cr_process_id = ? and checksum = ? and not deleted and id <> ? order by id limit 1`,
      [values.crProcessId, upload.checksum, fileId],
    );
    return {
      fileId,
      originalFileName: upload.originalFileName,
      storedFileName,
      fileSize: upload.fileSize,
      mimeType: upload.mimeType,
      uploadDate: now.toISOString(),
      ...(duplicate ? { duplicateOfFileId: Number(duplicate.id) } : {}),
    };
}

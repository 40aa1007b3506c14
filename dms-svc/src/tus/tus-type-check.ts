import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { SNIFF_BYTES, storedMimeType } from '../files/stored-mime-type.ts';
import { limitsOf, typeNotAllowed } from '../files/tenant-limits.ts';
import { formValues } from '../files/upload-fields.ts';
import { releaseUpload } from '../files/upload-reservations.ts';
import type { TusStore } from './tus-store.ts';
import { clientMetadataOf, tusUploadFieldsOf } from './tus-metadata.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';

/**
 * The content's type, judged as soon as the first bytes that decide it are in (the store calls
 * this after each write, under the upload's lock: TusStore.afterWrite): the write that
 * brings the upload past its first 4,100 bytes (the whole file when smaller) sniffs them as the
 * completion will, and a type outside the tenant's allowedMimeTypes is 415 SVC-SYS-3002 at once —
 * the upload is removed (bytes, state, reservation) rather than left to fill up until its end.
 */
export function contentTypeCheck(store: TusStore, runtime: Runtime): (id: string, from: number, to: number) => Promise<void> {
  return async (id, from, to) => {
    const info = await store.info(id);
    if (info?.size === undefined) return;
    const window = Math.min(info.size, SNIFF_BYTES);
    if (from >= window || to < window) return;
    const { filetype, fields } = tusUploadFieldsOf(clientMetadataOf(info.metadata));
    const crProcessId = formValues(fields).crProcessId;
    // the upload's own tenant, which its creation was allowed for
    const em = scopedFork(runtime.orm, { tenants: typeof crProcessId === 'number' ? [crProcessId] : [] });
    const limits = await limitsOf(em, crProcessId);
    if (limits.allowedMimeTypes.length === 0) return;
    const head = await store.head(id, window);
    // first bytes written elsewhere and not kept (DMS_STORAGE=s3, a rare break-off): the completion judges them
    if (head.length < window) return;
    const type = await storedMimeType(head, filetype);
    if (limits.allowedMimeTypes.includes(type.toLowerCase())) return;
    await store.discard(id);
    await releaseUpload(em, id);
    throw typeNotAllowed();
  };
}

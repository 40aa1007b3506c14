import type { IncomingMessage, ServerResponse } from 'node:http';
import { Upload } from '@tus/utils';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { ReceivedUpload } from '../files/receive-upload.ts';
import { SNIFF_BYTES, storedMimeType } from '../files/stored-mime-type.ts';
import { storeUpload } from '../files/store-upload.ts';
import { originalNameOf } from '../files/upload-fields.ts';
import { releaseUpload } from '../files/upload-reservations.ts';
import { clientAddressOf } from '../http/client-address.ts';
import type { UploadScanner } from '../scan/upload-scanner.ts';
import type { FileTexts } from '../text/file-texts.ts';
import type { TusStore } from './tus-store.ts';
import { clientMetadataOf, FILE_ID, tusUploadFieldsOf } from './tus-metadata.ts';
import { DUPLICATE_HEADER, FILE_ID_HEADER } from './tus-protocol.ts';

/** What a completion uses of the service's parts: where a finished upload becomes a dms-file. */
export interface CompletionDeps {
  files: ResourceRuntime;
  /** The upload scanner storeUpload runs (docs/adr/0096-what-a-scan-answers.md). */
  scanner: UploadScanner;
  /** What an upload does for its file's words (text/file-texts.ts). */
  texts: FileTexts;
}

/**
 * tus's completion hook, under the upload's lock: the finished upload (adopted by the storage:
 * TusStore.staged) becomes a dms-file through
 * storeUpload, the multipart upload's own finalisation (limits, type, quota under the tenant's
 * lock, audit row, event, duplicate), and the answer names it in Upload-File-Id. A refusal removes
 * the upload entirely (storeUpload removes the bytes, this the record and the reservation). The
 * record of a stored one is kept, naming its file, until it expires.
 */
export async function completeUpload(
  deps: CompletionDeps,
  store: TusStore,
  req: IncomingMessage,
  ctx: CallContext,
  upload: Upload,
): Promise<{ headers: Record<string, string> }> {
  const metadata = upload.metadata ?? {};
  try {
    const fields = new Map<string, string>();
    const { filename, filetype, fields: given } = tusUploadFieldsOf(clientMetadataOf(metadata));
    for (const [name, value] of given) fields.set(name, value);
    const size = upload.size ?? upload.offset;
    const checksum = await store.checksumOf(upload.id, size);
    const received: ReceivedUpload = {
      staged: store.staged(upload.id),
      originalFileName: originalNameOf(filename),
      fileSize: size,
      checksum,
      mimeType: await storedMimeType(await store.head(upload.id, Math.min(size, SNIFF_BYTES)), filetype),
      fields,
      reservation: upload.id,
    };
    const stored = await storeUpload(deps.files, ctx, received, clientAddressOf(req), deps.scanner, deps.texts);
    const record = new Upload({
      id: upload.id,
      size,
      offset: size,
      metadata: { ...metadata, [FILE_ID]: String(stored.fileId) },
      creation_date: upload.creation_date,
    });
    await store.keepInfo(record);
    return {
      headers: {
        [FILE_ID_HEADER]: String(stored.fileId),
        ...(stored.duplicateOfFileId === undefined ? {} : { [DUPLICATE_HEADER]: String(stored.duplicateOfFileId) }),
      },
    };
  } catch (error) {
    await store.discard(upload.id);
    await releaseUpload(ctx.em, upload.id);
    throw error;
  }
}

/**
 * HEAD, PATCH or DELETE of an upload that is already a dms-file (its record names `fileId`): HEAD
 * tells its full offset and its file, a PATCH is 409 SVC-SYS-4002 `tus.completed`, a DELETE
 * removes the record alone (the file is the dms-file's now) and answers 204.
 */
export async function answerCompleted(store: TusStore, req: IncomingMessage, res: ServerResponse, id: string, info: Upload, fileId: string): Promise<void> {
  if (req.method === 'PATCH') throw new DomainError('SVC-SYS-4002', 'tus.completed');
  if (req.method === 'DELETE') {
    await store.dropInfo(id);
    res.writeHead(204, { 'cache-control': 'no-store' }).end();
    return;
  }
  const size = String(info.size ?? info.offset);
  res.writeHead(200, { 'upload-offset': size, 'upload-length': size, [FILE_ID_HEADER.toLowerCase()]: fileId, 'cache-control': 'no-store' }).end();
}

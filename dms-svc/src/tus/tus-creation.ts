import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Uid } from '@tus/utils';
import { assertTenant, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { DmsConfig } from '../config.ts';
import { TUS_CONTENT_TYPE } from '@platform/kit/errors/codes.ts';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import { claimKey, idempotencyTableOf, idempotentRequestOf, keepAnswer, type IdempotentRequest } from '@platform/service-kit/idempotency/idempotency.ts';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf, REPLAYED_HEADER } from '@platform/kit/idempotency/idempotency-key.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { limitsOf, tooLarge, typeNotAllowed, type TenantLimits } from '../files/tenant-limits.ts';
import { formValues, originalNameOf } from '../files/upload-fields.ts';
import { releaseUpload, reserveUpload } from '../files/upload-reservations.ts';
import type { TusStore } from './tus-store.ts';
import { FILE_ID, ownerOf, tusUploadFieldsOf } from './tus-metadata.ts';
import { FILE_ID_HEADER, hasBody, isOffsetType, TUS_PATH, WHOLE_NUMBER } from './tus-protocol.ts';

/** A creation the service accepted: the upload id it chose, whether it repeats an earlier one, and the key it claimed. */
export interface Creation {
  id: string;
  replay: boolean;
  idempotent?: IdempotentRequest;
}

/**
 * The checks of a creation before tus writes anything — its length, its metadata, its tenant, the
 * tenant's limits, the claimed type — then, in one transaction, the Idempotency-Key's claim and
 * the upload's reservation (files/upload-reservations.ts: the quota and the owner's open uploads).
 * The upload id is chosen here, so that the reservation and the kept answer name it; a repeat of a
 * claimed key is a replay of the upload it named.
 */
export async function checkCreation(config: DmsConfig, req: IncomingMessage, ctx: CallContext): Promise<Creation> {
  if (req.headers['upload-defer-length'] !== undefined) throw invalidField('Upload-Defer-Length');
  const lengthText = req.headers['upload-length'];
  if (typeof lengthText !== 'string' || !WHOLE_NUMBER.test(lengthText)) throw invalidField('Upload-Length');
  const length = Number(lengthText);
  if (length > config.dms.maxUploadBytes) throw tooLarge();
  const header = req.headers['upload-metadata'];
  const { filename, filetype, fields } = tusUploadFieldsOf(typeof header === 'string' ? header : undefined);
  originalNameOf(filename);
  const { crProcessId } = formValues(fields);
  assertTenant(ctx, crProcessId);
  const limits = await limitsOf(ctx.em, crProcessId);
  if (limits.maxFileSize !== undefined && length > limits.maxFileSize) throw tooLarge();
  if (!claimedTypeAllowed(limits, filetype)) throw typeNotAllowed();
  // a creation with bytes carries them as a PATCH does
  if (hasBody(req) && !isOffsetType(req.headers['content-type'])) throw new DomainError(TUS_CONTENT_TYPE.code, TUS_CONTENT_TYPE.messageKey);
  // the key is the creation's: a completion in this request (a creation with the whole file) is under none
  const keyed = { ...ctx, idempotencyKey: idempotencyKeyOf(req.headers[IDEMPOTENCY_KEY_HEADER]) };
  const idempotent = idempotentRequestOf(keyed, `${dmsFile.path}.tus`, { length, filename, filetype, fields: Object.fromEntries(fields) });
  const id = Uid.rand();
  const dms = config.dms;
  return ctx.em.transactional(async (em) => {
    if (idempotent) {
      // first: a repeat waits here for the first creation, then reserves nothing
      const claim = await claimKey(em, idempotent);
      if (claim.replay) return { id: (claim.answer as { uploadId: string }).uploadId, replay: true };
    }
    await reserveUpload(em, {
      id,
      crProcessId,
      owner: ownerOf(ctx),
      length,
      expirySeconds: dms.tusExpirySeconds,
      maxOpen: dms.tusMaxOpenUploads,
      quota: limits.storageQuotaBytes,
    });
    if (idempotent) await keepAnswer(em, idempotent, { uploadId: id });
    return { id, replay: false, ...(idempotent ? { idempotent } : {}) };
  });
}

/**
 * The answer to a repeated creation (the same key, the same request): 201 naming the first one's
 * upload, with its offset now (and its file, once complete); a body sent with the repeat is not
 * read into it, the offset tells the client where to resume.
 */
export async function answerReplay(store: TusStore, req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  req.resume();
  const headers: Record<string, string> = { location: `${TUS_PATH}/${id}`, [REPLAYED_HEADER.toLowerCase()]: 'true', 'cache-control': 'no-store' };
  const info = await store.info(id);
  if (info) {
    const fileId = info.metadata?.[FILE_ID];
    headers['upload-offset'] = String(fileId ? (info.size ?? info.offset) : (await store.getUpload(id)).offset);
    if (fileId) headers[FILE_ID_HEADER.toLowerCase()] = fileId;
  }
  res.writeHead(201, headers).end();
}

/**
 * After a creation tus refused: when no upload was made (or it was removed again, a refused
 * completion or type), its reservation goes, and so does the key it claimed, so a retry under the
 * key is a new creation (as a refused create leaves its key unused).
 */
export async function abandonCreation(store: TusStore, em: EntityManager, creation: Creation): Promise<void> {
  if (await store.info(creation.id)) return;
  await releaseUpload(em, creation.id);
  const { idempotent } = creation;
  if (idempotent) {
    await em.execute(`delete from ${idempotencyTableOf(em)} where owner = ? and idempotency_key = ? and answer ->> 'uploadId' = ?`, [
      idempotent.owner,
      idempotent.key,
      creation.id,
    ]);
  }
}

/**
 * Whether a creation's claimed type (Upload-Metadata `filetype`, parameters dropped) is one the
 * tenant allows; no claim, or no list, is judged later on the content.
 */
function claimedTypeAllowed(limits: TenantLimits, filetype: string): boolean {
  const claimed = (filetype.split(';', 1)[0] ?? '').trim().toLowerCase();
  return claimed === '' || limits.allowedMimeTypes.length === 0 || limits.allowedMimeTypes.includes(claimed);
}

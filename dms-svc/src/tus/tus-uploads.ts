import { open, readdir, unlink } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Server } from '@tus/server';
import { type Locker, TUS_RESUMABLE, Uid, Upload } from '@tus/utils';
import { NodeRequest } from 'srvx/node';
import type { ServerRequest } from 'srvx';
import { assertTenant, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { DmsConfig } from '../config.ts';
import { TUS_CONTENT_TYPE, TUS_VERSION } from '@platform/kit/errors/codes.ts';
import { DomainError, invalidField, notFound } from '@platform/kit/errors/domain-error.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import { claimKey, idempotencyTableOf, idempotentRequestOf, keepAnswer, type IdempotentRequest } from '@platform/service-kit/idempotency/idempotency.ts';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf, REPLAYED_HEADER } from '@platform/kit/idempotency/idempotency-key.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import type { ReceivedUpload } from '../files/receive-upload.ts';
import type { FileStorage } from '../files/storage.ts';
import { storedMimeType } from '../files/stored-mime-type.ts';
import { storeUpload } from '../files/store-upload.ts';
import type { UploadScanner } from '../scan/upload-scanner.ts';
import { limitsOf, tooLarge, typeNotAllowed, type TenantLimits } from '../files/tenant-limits.ts';
import { formValues, originalNameOf } from '../files/upload-fields.ts';
import { callerOf } from '../http/caller.ts';
import { clientAddressOf } from '../http/client-address.ts';
import { sendFailure } from '../http/respond.ts';
import { HashingFileStore } from './hashing-file-store.ts';
import { domainErrorOfTus } from './tus-errors.ts';
import { clientMetadataOf, FILE_ID, OWNER_TENANT, OWNER_USER, tusUploadFieldsOf } from './tus-metadata.ts';
import { releaseExpired, releaseUpload, reserveUpload, type UploadOwner } from './tus-reservations.ts';

/** The creation path; an upload's is `${TUS_PATH}/<id>`. The gateway's public path, so a relative Location is the client's. */
export const TUS_PATH = '/api/dms-file/tus';
/** An upload's id: @tus/server's default naming, 16 random bytes in hex. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** The folder of the uploads in progress, under the storage root (never a stored file's name, never served). */
export const TUS_DIR = '.tus';
/** The answer header naming the dms-file a completed upload became. */
export const FILE_ID_HEADER = 'Upload-File-Id';
/** The answer header naming the live file of the tenant with the same bytes, when there is one. */
export const DUPLICATE_HEADER = 'Upload-Duplicate-Of';
/** Bytes read from the start of a finished upload for sniffing its type (as the multipart path keeps). */
const SNIFF_BYTES = 4100;
const OFFSET_TYPE = 'application/offset+octet-stream';
const NUMBER = /^\d{1,16}$/;

export interface TusDeps {
  runtime: Runtime;
  config: DmsConfig;
  files: ResourceRuntime;
  storage: FileStorage;
  locker: Locker;
  /** The upload scanner storeUpload runs (decisions.md "Virus scanning"). */
  scanner: UploadScanner;
}

/** What one tus request carries from the checks before @tus/server to its hooks. */
interface TusCall {
  req: IncomingMessage;
  ctx: CallContext;
  /** The upload whose store reads this request's body (HashingFileStore.readFrom). */
  reading?: string;
  /** A creation's upload id, reserved before tus sees the request (the naming hook returns it). */
  id?: string;
  failure?: { error: unknown };
}

/**
 * Resumable uploads by tus 1.0.0 (core, creation, creation-with-upload, termination, expiration)
 * at /api/dms-file/tus (docs/interface.md#files, docs/decisions.md "Resumable uploads (tus)"), on
 * @tus/server with a FileStore under `<DMS_STORAGE_DIR>/.tus` that hashes as bytes arrive.
 *
 * Before @tus/server sees a request, this checks what tus does not know: Tus-Resumable 1.0.0 (else
 * 412), the caller (as for the multipart upload: token, live access, dms-file:write), and for an
 * existing upload that the caller created it (another user or tenant: 404, never its offset); at
 * creation, Upload-Metadata (filename and the form's fields; an unknown key is 400), the tenant the
 * caller may name (403), Upload-Length against DMS_MAX_UPLOAD_BYTES and the tenant's maxFileSize
 * (413 SVC-SYS-3001), the claimed filetype (415 SVC-SYS-3002), then the upload's reservation
 * against the quota and the owner's open uploads (413 SVC-SYS-3007, tus-reservations.ts) with the
 * Idempotency-Key's claim; the content's type once its first bytes are in (415). At completion the file goes
 * through `storeUpload`, the multipart upload's own finalisation, and the answer (204) names the
 * file in Upload-File-Id. Every refusal is the platform's error body with the code of
 * `domainErrorOfTus`, and carries Tus-Resumable; tus's own CORS headers are dropped (the gateway's
 * CORS answers for the origin).
 */
export class TusUploads {
  readonly store: HashingFileStore;
  readonly #deps: TusDeps;
  readonly #server: Server;
  readonly #calls = new WeakMap<ServerRequest, TusCall>();

  constructor(deps: TusDeps) {
    this.#deps = deps;
    this.store = new HashingFileStore({
      directory: join(deps.storage.dir, TUS_DIR),
      expirationPeriodInMilliseconds: deps.config.dms.tusExpirySeconds * 1000,
    });
    // a length is needed at creation: the limits are judged on it before any byte is taken
    this.store.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
    this.#server = new Server({
      path: TUS_PATH,
      datastore: this.store,
      locker: deps.locker,
      relativeLocation: true,
      maxSize: deps.config.dms.maxUploadBytes,
      // a finished upload is a dms-file: its record goes, the file stays (handled before tus)
      disableTerminationForFinishedUploads: true,
      // the creation's own bytes (creation-with-upload) are read from the request, as a PATCH's are
      namingFunction: (req) => {
        const call = this.#calls.get(req);
        const id = call?.id ?? Uid.rand();
        if (call && hasBody(call.req)) {
          this.store.readFrom(id, call.req);
          call.reading = id;
        }
        return id;
      },
      onUploadCreate: (req, upload) => this.#created(req, upload),
      onUploadFinish: (req, upload) => this.#finished(req, upload),
      onResponseError: (req, error) => {
        const call = this.#calls.get(req);
        if (call) call.failure ??= { error };
        return undefined;
      },
    });
    this.store.afterWrite = (id, from, to) => this.#checkHead(id, from, to);
  }

  /** The route template of a tus path, for the metrics; undefined for another path. */
  static routeOf(path: string): string | undefined {
    if (path === TUS_PATH) return TUS_PATH;
    return path.startsWith(`${TUS_PATH}/`) ? `${TUS_PATH}/:id` : undefined;
  }

  /** Answers one request on a tus path (`routeOf` gave a template). */
  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    res.setHeader('Tus-Resumable', TUS_RESUMABLE);
    let ctx: CallContext | undefined;
    try {
      const id = path === TUS_PATH ? undefined : path.slice(TUS_PATH.length + 1);
      if (req.method === 'OPTIONS') return await this.#forward(req, res, undefined);
      if (req.headers['tus-resumable'] !== TUS_RESUMABLE) {
        res.setHeader('Tus-Version', TUS_RESUMABLE);
        throw new DomainError(TUS_VERSION.code, TUS_VERSION.messageKey);
      }
      ctx = await callerOf(this.#deps.runtime, req, roleOf(dmsFile, 'write'));
      if (id === undefined) {
        if (req.method !== 'POST') throw notFoundPath(path);
        const creation = await this.#checkCreation(req, ctx);
        if (creation.replay) return await this.#replayed(req, res, creation.id);
        try {
          return await this.#forward(req, res, ctx, creation.id);
        } catch (error) {
          await this.#abandoned(creation.id, creation.idempotent);
          throw error;
        }
      }
      if (!UPLOAD_ID.test(id) || !['HEAD', 'PATCH', 'DELETE'].includes(req.method ?? '')) throw notFound(dmsFile.path);
      const info = await this.store.configstore.get(id);
      const metadata = info?.metadata ?? {};
      const owner = ownerOf(ctx);
      if (!info || metadata[OWNER_USER] !== owner.user || metadata[OWNER_TENANT] !== owner.tenant) {
        throw notFound(dmsFile.path);
      }
      const fileId = metadata[FILE_ID];
      if (fileId) return await this.#completed(req, res, id, info, fileId);
      if (req.method === 'PATCH') checkPatchHeaders(req);
      return await this.#forward(req, res, ctx);
    } catch (error) {
      if (req.socket.destroyed || res.destroyed) return;
      if (!req.complete && !req.destroyed) req.resume();
      sendFailure(this.#deps.runtime, req, res, error, ctx);
    }
  }

  /**
   * Removes the uploads created more than DMS_TUS_EXPIRY_SECONDS ago, unfinished ones (bytes and
   * state) and the records of finished ones alike; how many it removed. Safe beside other
   * replicas' sweeps (a name already gone is skipped).
   */
  async sweepExpired(log: Logger, now = Date.now()): Promise<number> {
    // first, any reservation past its expiry, whose upload is swept below or was gone already
    await releaseExpired(this.#deps.runtime.orm.em.fork());
    const dir = this.store.directory;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : undefined;
      if (!id || !UPLOAD_ID.test(id)) continue;
      const info = await this.store.configstore.get(id);
      const created = Date.parse(String(info?.creation_date ?? ''));
      if (!Number.isFinite(created) || created + this.store.getExpiration() > now) continue;
      this.store.forget(id);
      await unlink(join(dir, id)).catch(() => undefined);
      await unlink(join(dir, name)).catch(() => undefined);
      await releaseUpload(this.#deps.runtime.orm.em.fork(), id);
      log.info({ upload: id, completed: Boolean(info?.metadata?.[FILE_ID]) }, 'expired resumable upload removed');
      removed++;
    }
    return removed;
  }

  /** Hands the request to @tus/server and writes its answer: a success as it is (without tus's CORS headers), a refusal as the platform's error. */
  async #forward(req: IncomingMessage, res: ServerResponse, ctx: CallContext | undefined, id?: string): Promise<void> {
    const request = new NodeRequest({ req, res });
    const call: TusCall | undefined = ctx ? { req, ctx, ...(id === undefined ? {} : { id }) } : undefined;
    // the body is read by the store from `req` itself (HashingFileStore.readFrom); tus gets an empty one
    if (call && hasBody(req)) {
      const id = new URL(request.url).pathname.split('/').pop() ?? '';
      if (req.method === 'PATCH') {
        this.store.readFrom(id, req);
        call.reading = id;
      }
      Object.defineProperty(request, 'body', { value: new ReadableStream({ start: (controller) => controller.close() }) });
    }
    if (call) this.#calls.set(request, call);
    let answer: Response;
    try {
      answer = await this.#server.handleWeb(request);
    } finally {
      // a request tus refused before writing (a wrong offset, a lock held) is never read by a later write
      if (call?.reading) this.store.unread(call.reading, req);
    }
    if (answer.status >= 400) {
      const error = call?.failure?.error;
      const domain = error instanceof DomainError ? error : domainErrorOfTus(error, answer.status);
      throw domain ?? error ?? new Error(`tus answered ${answer.status}`);
    }
    // a terminated upload reserves nothing more, before its client hears that it is gone
    if (req.method === 'DELETE' && ctx) await releaseUpload(ctx.em, new URL(request.url).pathname.split('/').pop() ?? '');
    for (const [name, value] of answer.headers) {
      if (!/^access-control-/i.test(name) && name.toLowerCase() !== 'upload-metadata') res.setHeader(name, value);
    }
    // a HEAD tells the upload's metadata as the client gave it, not the service's own keys
    if (req.method === 'HEAD' && answer.headers.has('upload-metadata')) {
      const id = new URL(request.url).pathname.split('/').pop() ?? '';
      const shown = clientMetadataOf((await this.store.configstore.get(id))?.metadata);
      if (shown) res.setHeader('Upload-Metadata', shown);
    }
    res.setHeader('Cache-Control', 'no-store');
    const body = Buffer.from(await answer.arrayBuffer());
    res.statusCode = answer.status;
    res.end(body.length > 0 ? body : undefined);
  }

  /**
   * The checks of a creation before tus writes anything — its length, its metadata, its tenant, the
   * tenant's limits, the claimed type — then, in one transaction, the Idempotency-Key's claim and
   * the upload's reservation (tus-reservations.ts: the quota and the owner's open uploads). The
   * upload id is chosen here, so that the reservation and the kept answer name it; a repeat of a
   * claimed key is a replay of the upload it named.
   */
  async #checkCreation(req: IncomingMessage, ctx: CallContext): Promise<{ id: string; replay: boolean; idempotent?: IdempotentRequest }> {
    if (req.headers['upload-defer-length'] !== undefined) throw invalidField('Upload-Defer-Length');
    const lengthText = req.headers['upload-length'];
    if (typeof lengthText !== 'string' || !NUMBER.test(lengthText)) throw invalidField('Upload-Length');
    const length = Number(lengthText);
    if (length > this.#deps.config.dms.maxUploadBytes) throw tooLarge();
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
    const dms = this.#deps.config.dms;
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
  async #replayed(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    req.resume();
    const headers: Record<string, string> = { location: `${TUS_PATH}/${id}`, [REPLAYED_HEADER.toLowerCase()]: 'true', 'cache-control': 'no-store' };
    const info = await this.store.configstore.get(id);
    if (info) {
      const fileId = info.metadata?.[FILE_ID];
      headers['upload-offset'] = String(fileId ? (info.size ?? info.offset) : (await this.store.getUpload(id)).offset);
      if (fileId) headers[FILE_ID_HEADER.toLowerCase()] = fileId;
    }
    res.writeHead(201, headers).end();
  }

  /**
   * After a creation tus refused: when no upload was made (or it was removed again, a refused
   * completion or type), its reservation goes, and so does the key it claimed, so a retry under the
   * key is a new creation (as a refused create leaves its key unused).
   */
  async #abandoned(id: string, idempotent: IdempotentRequest | undefined): Promise<void> {
    if (await this.store.configstore.get(id)) return;
    const em = this.#deps.runtime.orm.em.fork();
    await releaseUpload(em, id);
    if (idempotent) {
      await em.execute(`delete from ${idempotencyTableOf(em)} where owner = ? and idempotency_key = ? and answer ->> 'uploadId' = ?`, [
        idempotent.owner,
        idempotent.key,
        id,
      ]);
    }
  }

  /**
   * The content's type, judged as soon as the first bytes that decide it are in (the store calls
   * this after each write, under the upload's lock): the write that brings the upload past its
   * first 4,100 bytes (the whole file when smaller) sniffs them as the completion will, and a type
   * outside the tenant's allowedMimeTypes is 415 SVC-SYS-3002 at once — the upload is removed
   * (bytes, state, reservation) rather than left to fill up until its end.
   */
  async #checkHead(id: string, from: number, to: number): Promise<void> {
    const info = await this.store.configstore.get(id);
    if (info?.size === undefined) return;
    const window = Math.min(info.size, SNIFF_BYTES);
    if (from >= window || to < window) return;
    const { filetype, fields } = tusUploadFieldsOf(clientMetadataOf(info.metadata));
    const em = this.#deps.runtime.orm.em.fork();
    const limits = await limitsOf(em, formValues(fields).crProcessId);
    if (limits.allowedMimeTypes.length === 0) return;
    const path = join(this.store.directory, id);
    const type = await storedMimeType(await headOf(path, window), filetype);
    if (limits.allowedMimeTypes.includes(type.toLowerCase())) return;
    this.store.forget(id);
    await unlink(path).catch(() => undefined);
    await this.store.configstore.delete(id).catch(() => undefined);
    await releaseUpload(em, id);
    throw typeNotAllowed();
  }

  /** tus's creation hook: the upload is the caller's, in its tenant (checked when it is asked for again). */
  async #created(req: ServerRequest, upload: Upload): Promise<{ metadata: Upload['metadata'] }> {
    const owner = ownerOf(this.#callOf(req).ctx);
    return { metadata: { ...upload.metadata, [OWNER_USER]: owner.user, [OWNER_TENANT]: owner.tenant } };
  }

  /**
   * tus's completion hook, under the upload's lock: the finished file becomes a dms-file through
   * storeUpload (limits, type, quota under the tenant's lock, audit row, event, duplicate). A
   * refusal removes the upload entirely (storeUpload removes the bytes, this the record). The
   * record of a stored one is kept, naming its file, until it expires.
   */
  async #finished(req: ServerRequest, upload: Upload): Promise<{ headers: Record<string, string> }> {
    const call = this.#callOf(req);
    const metadata = upload.metadata ?? {};
    const path = join(this.store.directory, upload.id);
    try {
      const fields = new Map<string, string>();
      const { filename, filetype, fields: given } = tusUploadFieldsOf(clientMetadataOf(metadata));
      for (const [name, value] of given) fields.set(name, value);
      const size = upload.size ?? upload.offset;
      const received: ReceivedUpload = {
        temporaryPath: path,
        originalFileName: originalNameOf(filename),
        fileSize: size,
        checksum: await this.store.checksumOf(upload.id, size),
        mimeType: await storedMimeType(await headOf(path, Math.min(size, SNIFF_BYTES)), filetype),
        fields,
        reservation: upload.id,
      };
      const stored = await storeUpload(this.#deps.files, this.#deps.storage, call.ctx, received, clientAddressOf(call.req), this.#deps.scanner);
      const record = new Upload({
        id: upload.id,
        size,
        offset: size,
        metadata: { ...metadata, [FILE_ID]: String(stored.fileId) },
        creation_date: upload.creation_date,
      });
      await this.store.configstore.set(upload.id, record);
      return {
        headers: {
          [FILE_ID_HEADER]: String(stored.fileId),
          ...(stored.duplicateOfFileId === undefined ? {} : { [DUPLICATE_HEADER]: String(stored.duplicateOfFileId) }),
        },
      };
    } catch (error) {
      this.store.forget(upload.id);
      await unlink(path).catch(() => undefined);
      await this.store.configstore.delete(upload.id).catch(() => undefined);
      await releaseUpload(call.ctx.em, upload.id);
      throw error;
    }
  }

  /** HEAD, PATCH or DELETE of an upload that is already a dms-file. */
  async #completed(req: IncomingMessage, res: ServerResponse, id: string, info: Upload, fileId: string): Promise<void> {
    if (req.method === 'PATCH') throw new DomainError('SVC-SYS-4002', 'tus.completed');
    if (req.method === 'DELETE') {
      await unlink(join(this.store.directory, `${id}.json`)).catch(() => undefined);
      res.writeHead(204, { 'cache-control': 'no-store' }).end();
      return;
    }
    const size = String(info.size ?? info.offset);
    res.writeHead(200, { 'upload-offset': size, 'upload-length': size, [FILE_ID_HEADER.toLowerCase()]: fileId, 'cache-control': 'no-store' }).end();
  }

  #callOf(req: ServerRequest): TusCall {
    const call = this.#calls.get(req);
    if (!call) throw new Error('a tus hook ran for a request the service did not check');
    return call;
  }
}

/** The headers of a PATCH that tus reads: Upload-Offset a non-negative integer, Content-Type application/offset+octet-stream. */
function checkPatchHeaders(req: IncomingMessage): void {
  if (!isOffsetType(req.headers['content-type'])) throw new DomainError(TUS_CONTENT_TYPE.code, TUS_CONTENT_TYPE.messageKey);
  const offset = req.headers['upload-offset'];
  if (typeof offset !== 'string' || !NUMBER.test(offset)) throw invalidField('Upload-Offset');
}

function isOffsetType(type: string | undefined): boolean {
  return (type ?? '').split(';', 1)[0]?.trim().toLowerCase() === OFFSET_TYPE;
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Whether a creation's claimed type (Upload-Metadata `filetype`, parameters dropped) is one the
 * tenant allows; no claim, or no list, is judged later on the content.
 */
function claimedTypeAllowed(limits: TenantLimits, filetype: string): boolean {
  const claimed = (filetype.split(';', 1)[0] ?? '').trim().toLowerCase();
  return claimed === '' || limits.allowedMimeTypes.length === 0 || limits.allowedMimeTypes.includes(claimed);
}

/** Who an upload belongs to: the user that created it, in the tenant it worked in. */
function ownerOf(ctx: CallContext): UploadOwner {
  if (ctx.caller.kind !== 'user') throw new Error('a tus upload has a user');
  return { user: ctx.caller.claims.userCode, tenant: String(ctx.caller.claims.crProcessId) };
}

function notFoundPath(path: string): DomainError {
  return new DomainError('SVC-SYS-4001', 'path.notFound', { path: path.slice(0, 200) });
}

/** The first `bytes` bytes of a file. */
async function headOf(path: string, bytes: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { assertTenant, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { DmsConfig } from '../config.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf } from '@platform/kit/idempotency/idempotency-key.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { callerOf } from '../http/caller.ts';
import { clientAddressOf } from '../http/client-address.ts';
import { sendFailure, sendJson } from '../http/respond.ts';
import type { UploadScanner } from '../scan/upload-scanner.ts';
import type { FileTexts } from '../text/file-texts.ts';
import { receiveUpload } from './receive-upload.ts';
import type { FileStorage } from './storage.ts';
import { storeUpload } from './store-upload.ts';
import { streamCaps, type StreamCap } from './tenant-limits.ts';

/** What the multipart upload uses of the file server's parts. */
export interface UploadDeps {
  runtime: Runtime;
  config: DmsConfig;
  files: ResourceRuntime;
  storage: FileStorage;
  /** Scans every upload before storeUpload stores it (NO_SCANNING without CLAMD_ADDRESS). */
  scanner: UploadScanner;
  /** What an upload does for its file's words (text/file-texts.ts). */
  texts: FileTexts;
}

/**
 * POST /api/dms-file/upload (docs/interface.md#files): the caller proven here (token, live access,
 * dms-file:write), the multipart body streamed into a temporary file within DMS_MAX_UPLOAD_BYTES and
 * the tenant's caps (receive-upload.ts), then stored (store-upload.ts) and answered with the upload
 * response; under an Idempotency-Key a replayed answer says so (Idempotent-Replayed).
 */
export async function uploadRequest(deps: UploadDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let ctx: CallContext | undefined;
  try {
    ctx = await callerOf(deps.runtime, req, roleOf(dmsFile, 'write'));
    ctx.idempotencyKey = idempotencyKeyOf(req.headers[IDEMPOTENCY_KEY_HEADER]);
    ctx.markReplayed = () => res.setHeader('Idempotent-Replayed', 'true');
    const caller = ctx;
    // the tenant's maxFileSize and remaining quota, while streaming, when the form names the tenant before the file
    const capsOf = async (fields: ReadonlyMap<string, string>): Promise<readonly StreamCap[]> => {
      const tenant = fields.get('crProcessId') ?? '';
      if (!/^\d{1,16}$/.test(tenant)) return [];
      assertTenant(caller, Number(tenant));
      return streamCaps(caller.em, Number(tenant));
    };
    const received = await receiveUpload(req, deps.storage.stage(), deps.config.dms.maxUploadBytes, capsOf);
    sendJson(res, 200, await storeUpload(deps.files, ctx, received, clientAddressOf(req), deps.scanner, deps.texts));
  } catch (error) {
    // the client went away midway: nothing was kept, and there is no one to answer
    if (req.socket.destroyed || res.destroyed) return;
    // a refusal before the body was read: the rest of it is read and dropped, so the client sees the answer
    if (!req.complete && !req.destroyed) req.resume();
    sendFailure(deps.runtime, req, res, error, ctx);
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { TUS_RESUMABLE } from '@tus/utils';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import { TUS_VERSION } from '@platform/kit/errors/codes.ts';
import { DomainError, notFound } from '@platform/kit/errors/domain-error.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import type { DmsConfig } from '../config.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { callerOf } from '../http/caller.ts';
import { sendFailure } from '../http/respond.ts';
import type { TusStore } from './tus-store.ts';
import type { TusAdapter } from './tus-adapter.ts';
import { answerCompleted } from './tus-completion.ts';
import { abandonCreation, answerReplay, checkCreation } from './tus-creation.ts';
import { FILE_ID, isOwnedBy, ownerOf } from './tus-metadata.ts';
import { checkPatchHeaders, TUS_PATH, UPLOAD_ID } from './tus-protocol.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';

/** What the gate uses: the service's runtime and settings, the uploads' store, and tus behind it. */
export interface TusGateDeps {
  runtime: Runtime;
  config: DmsConfig;
  store: TusStore;
  adapter: TusAdapter;
}

/**
 * Answers one request on a tus path (tusRouteOf gave a template), checking before @tus/server sees
 * it what tus does not know: Tus-Resumable 1.0.0 (else 412), the caller (as for the multipart
 * upload: token, live access, dms-file:write), and for an existing upload that the caller created
 * it (another user or tenant: 404, never its offset); a creation is checked and reserved first
 * (tus-creation.ts), and an upload that is a dms-file already is answered here (tus-completion.ts).
 * Every refusal is the platform's error body with Tus-Resumable.
 */
export async function answerTus(deps: TusGateDeps, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  res.setHeader('Tus-Resumable', TUS_RESUMABLE);
  let ctx: CallContext | undefined;
  try {
    if (req.method === 'OPTIONS') return await deps.adapter.forward(req, res, undefined);
    if (req.headers['tus-resumable'] !== TUS_RESUMABLE) {
      res.setHeader('Tus-Version', TUS_RESUMABLE);
      throw new DomainError(TUS_VERSION.code, TUS_VERSION.messageKey);
    }
    ctx = await callerOf(deps.runtime, req, roleOf(dmsFile, 'write'));
    if (path === TUS_PATH) {
      if (req.method !== 'POST') throw new DomainError('SVC-SYS-4001', 'path.notFound', { path: path.slice(0, 200) });
      const creation = await checkCreation(deps.config, req, ctx);
      if (creation.replay) return await answerReplay(deps.store, req, res, creation.id);
      try {
        return await deps.adapter.forward(req, res, { req, ctx, id: creation.id });
      } catch (error) {
        await abandonCreation(deps.store, scopedFork(deps.runtime.orm, { platform: 'uploads' }), creation);
        throw error;
      }
    }
    const id = path.slice(TUS_PATH.length + 1);
    if (!UPLOAD_ID.test(id) || !['HEAD', 'PATCH', 'DELETE'].includes(req.method ?? '')) throw notFound(dmsFile.path);
    const info = await deps.store.info(id);
    if (!info || !isOwnedBy(info.metadata ?? {}, ownerOf(ctx))) throw notFound(dmsFile.path);
    const fileId = info.metadata?.[FILE_ID];
    if (fileId) return await answerCompleted(deps.store, req, res, id, info, fileId);
    if (req.method === 'PATCH') checkPatchHeaders(req);
    return await deps.adapter.forward(req, res, { req, ctx, id });
  } catch (error) {
    if (req.socket.destroyed || res.destroyed) return;
    if (!req.complete && !req.destroyed) req.resume();
    sendFailure(deps.runtime, req, res, error, ctx);
  }
}

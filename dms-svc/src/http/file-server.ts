import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { assertTenant } from '@platform/service-kit/auth/caller.ts';
import type { DmsConfig } from '../config.ts';
import { portOf } from '@platform/kit/config/env.ts';
import { drainHttpServer } from '@platform/kit/runtime/drain.ts';
import { REQUEST_ID_HEADER, requestIdFrom, withRequestId } from '@platform/kit/log/request-id.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf } from '@platform/kit/idempotency/idempotency-key.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { appendAudit } from '../audit/append-audit.ts';
import { DomainError, forbidden, notFound } from '@platform/kit/errors/domain-error.ts';
import { FILE_PORT_CREDENTIAL_HEADER, FilePortCredential } from '@platform/kit/auth/file-port-credential.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { HttpLatency, UNMATCHED_ROUTE } from '@platform/kit/metrics/http.metrics.ts';
import type { DownloadSigner } from '../files/download-signature.ts';
import { receiveUpload } from '../files/receive-upload.ts';
import { sendFile } from '../files/send-file.ts';
import type { FileStorage } from '../files/storage.ts';
import { storeUpload } from '../files/store-upload.ts';
import type { UploadScanner } from '../scan/upload-scanner.ts';
import { streamCaps, type StreamCap } from '../files/tenant-limits.ts';
import { publicDownload } from '../share/public-download.ts';
import { TusUploads } from '../tus/tus-uploads.ts';
import { validatePassword } from '../share/validate-password.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { callerOf } from './caller.ts';
import { clientAddressOf } from './client-address.ts';
import { sendFailure, sendJson } from './respond.ts';

const UPLOAD = '/api/dms-file/upload';
const DOWNLOAD = /^\/api\/dms-file\/download\/([^/?]*)$/;
const SHARE = /^\/api\/dms-share-link\/public\/([^/?]*)$/;
const SHARE_PASSWORD = /^\/api\/dms-share-link\/public\/([^/?]*)\/validate-password$/;

export interface FileServerDeps {
  runtime: Runtime;
  config: DmsConfig;
  files: ResourceRuntime;
  storage: FileStorage;
  signer: DownloadSigner;
  /** Resumable uploads (tus) at /api/dms-file/tus. */
  tus: TusUploads;
  /** Scans every upload before storeUpload stores it (NO_SCANNING without CLAMD_ADDRESS). */
  scanner: UploadScanner;
}

/**
 * dms-svc's HTTP server for file bytes (DMS_HTTP_ADDR), which the gateway proxies to after its
 * filter chain. It proves everything itself: the upload's token, live access, role and tenant; the
 * download's signature. POST /api/dms-file/upload, GET|HEAD /api/dms-file/download/{id}, and the
 * public share-link paths GET|HEAD /api/dms-share-link/public/{token} and POST
 * /api/dms-share-link/public/{token}/validate-password (share/*), the resumable uploads under
 * /api/dms-file/tus (tus/tus-uploads.ts); anything else 404. Each request
 * runs as the one the gateway handed on (X-Request-Id, else a new id), for its log lines and
 * exception entry.
 *
 * It answers the gateway only: before anything else, every request must carry the gateway's
 * credential (FILE_PORT_CREDENTIAL_HEADER, libs/kit/src/auth/file-port-credential.ts), else 403
 * SVC-SYS-1003 and its body is dropped unread. So nothing a request that did not come through the
 * gateway says is believed — X-Forwarded-For included (client-address.ts) — and the gateway's
 * filter chain (IP filter, rate limits, the share-password throttle) cannot be walked around. It
 * binds INTERNAL_LISTEN_HOST (loopback by default), the port of DMS_HTTP_ADDR.
 */
export async function startFileServer(deps: FileServerDeps): Promise<{ server: Server; close(): Promise<void> }> {
  await deps.storage.prepare();
  const latency = new HttpLatency(deps.runtime.metrics);
  const gateway = new FilePortCredential(deps.config.jwtSecret);
  const server = createServer((req, res) => {
    const start = performance.now();
    res.once('close', () => latency.observe(req.method, routeOf(req), res.statusCode, (performance.now() - start) / 1000));
    if (!gateway.matches(req.headers[FILE_PORT_CREDENTIAL_HEADER])) {
      req.resume();
      sendFailure(deps.runtime, req, res, forbidden());
      return;
    }
    void withRequestId(requestIdFrom(req.headers[REQUEST_ID_HEADER]), () =>
      handle(deps, req, res).catch((error: unknown) => sendFailure(deps.runtime, req, res, error)),
    );
  });
  // a large upload may take long; the gateway in front bounds each body (an upload by inactivity,
  // the rest in total) and a request it cuts off is cut off here too
  server.requestTimeout = 0;
  // Clients that keep connections open (tools calling DMS_HTTP_ADDR directly) must close idle ones
  // first, so this server never closes one they are about to reuse; the gateway opens one per request.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(portOf(deps.config.dms.httpAddr), deps.config.internalListenHost, resolve);
  });
  deps.runtime.log.info({ host: deps.config.internalListenHost, port: portOf(deps.config.dms.httpAddr) }, 'file server listening');
  return {
    server,
    // uploads and downloads in flight finish (within the drain bound), like the gRPC calls beside them
    close: () => drainHttpServer(server).then(() => undefined),
  };
}

/** The route template of a request, for the metrics: never its path, which holds ids and share tokens. */
function routeOf(req: IncomingMessage): string {
  const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
  if (path === UPLOAD) return UPLOAD;
  if (DOWNLOAD.test(path)) return '/api/dms-file/download/:id';
  if (SHARE.test(path)) return '/api/dms-share-link/public/:token';
  if (SHARE_PASSWORD.test(path)) return '/api/dms-share-link/public/:token/validate-password';
  return TusUploads.routeOf(path) ?? UNMATCHED_ROUTE;
}

async function handle(deps: FileServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://dms');
  if (url.pathname === UPLOAD && req.method === 'POST') return upload(deps, req, res);
  if (TusUploads.routeOf(url.pathname)) return deps.tus.handle(req, res, url.pathname);
  const download = DOWNLOAD.exec(url.pathname);
  if (download && (req.method === 'GET' || req.method === 'HEAD')) return signedDownload(deps, req, res, download[1] ?? '', url.searchParams);
  const share = SHARE.exec(url.pathname);
  if (share && (req.method === 'GET' || req.method === 'HEAD')) return publicDownload(deps, req, res, share[1] ?? '', url.searchParams);
  const password = SHARE_PASSWORD.exec(url.pathname);
  if (password && req.method === 'POST') return validatePassword(deps, req, res, password[1] ?? '');
  req.resume();
  throw new DomainError('SVC-SYS-4001', 'path.notFound', { path: url.pathname.slice(0, 200) });
}

async function upload(deps: FileServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
    const received = await receiveUpload(req, deps.storage.temporaryPath(), deps.config.dms.maxUploadBytes, capsOf);
    sendJson(res, 200, await storeUpload(deps.files, deps.storage, ctx, received, clientAddressOf(req), deps.scanner));
  } catch (error) {
    // the client went away midway: nothing was kept, and there is no one to answer
    if (req.socket.destroyed || res.destroyed) return;
    // a refusal before the body was read: the rest of it is read and dropped, so the client sees the answer
    if (!req.complete && !req.destroyed) req.resume();
    sendFailure(deps.runtime, req, res, error, ctx);
  }
}

/** Who a signed download is audited as: the URL is the credential, and names no user. */
export const SIGNED_URL_USER = 'anonymous';

/**
 * A signed URL needs no session (docs/interface.md#files): the signature is the credential; a deleted file
 * is 404. Each GET answered with bytes (200 or 206) appends a DOWNLOAD audit row with the client's
 * address and User-Agent before the first byte goes out (a row that cannot be written fails the
 * download); a 416 and a HEAD send no content and are not audited.
 */
async function signedDownload(deps: FileServerDeps, req: IncomingMessage, res: ServerResponse, idText: string, query: URLSearchParams): Promise<void> {
  const { id, inline } = deps.signer.verify(idText, query);
  const em = deps.runtime.orm.em.fork();
  const row = await em.findOne(deps.files.entity, { id, deleted: false });
  if (!row) throw notFound(dmsFile.path);
  await sendFile(
    req,
    res,
    {
      path: deps.storage.pathOf(String(row.storedFileName)),
      originalFileName: String(row.originalFileName),
      mimeType: String(row.mimeType),
      checksum: String(row.checksum),
      inline,
    },
    {
      // once it is settled that bytes go out (not for a 416)
      beforeBytes: () =>
        em.transactional((tx) =>
          appendAudit(tx, Number(row.crProcessId), {
            action: 'DOWNLOAD',
            userCode: SIGNED_URL_USER,
            fileId: Number(row.id),
            ...clientAddressOf(req),
            details: { inline, ...(req.headers.range ? { range: req.headers.range.slice(0, 100) } : {}) },
          }),
        ),
    },
  );
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { DmsConfig } from '../config.ts';
import { portOf } from '@platform/kit/config/env.ts';
import { drainHttpServer } from '@platform/kit/runtime/drain.ts';
import { REQUEST_ID_HEADER, requestIdFrom, withRequestId } from '@platform/kit/log/request-id.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { DomainError, forbidden } from '@platform/kit/errors/domain-error.ts';
import { FILE_PORT_CREDENTIAL_HEADER, FilePortCredential } from '@platform/kit/auth/file-port-credential.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { HttpLatency, UNMATCHED_ROUTE } from '@platform/kit/metrics/http.metrics.ts';
import type { DownloadSigner } from '../files/download-signature.ts';
import { signedDownload } from '../files/signed-download.ts';
import type { FileStorage } from '../files/storage.ts';
import { uploadRequest } from '../files/upload-request.ts';
import { sendFailure } from '../http/respond.ts';
import type { UploadScanner } from '../scan/upload-scanner.ts';
import type { FileTexts } from '../text/file-texts.ts';
import { publicDownload } from '../share/public-download.ts';
import { validatePassword } from '../share/validate-password.ts';
import { tusRouteOf } from '../tus/tus-protocol.ts';
import type { TusUploads } from '../tus/tus-uploads.ts';

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
  /** What an upload does for its file's words (text/file-texts.ts). */
  texts: FileTexts;
}

/**
 * dms-svc's HTTP server for file bytes (DMS_HTTP_ADDR), which the gateway proxies to after its
 * filter chain. It proves everything itself: the upload's token, live access, role and tenant; the
 * download's signature. Each route is answered by the folder that owns it: POST
 * /api/dms-file/upload (files/upload-request.ts), GET|HEAD /api/dms-file/download/{id}
 * (files/signed-download.ts), the public share-link paths GET|HEAD
 * /api/dms-share-link/public/{token} and POST /api/dms-share-link/public/{token}/validate-password
 * (share/), the resumable uploads under /api/dms-file/tus (tus/); anything else 404. The router
 * only imports downward: what the routes share (the caller's proof, the client address, the
 * answers) is in http/. Each request runs as the one the gateway handed on (X-Request-Id, else a
 * new id), for its log lines and exception entry.
 *
 * It answers the gateway only: before anything else, every request must carry the gateway's
 * credential (FILE_PORT_CREDENTIAL_HEADER, libs/kit/src/auth/file-port-credential.ts), else 403
 * SVC-SYS-1003 and its body is dropped unread. So nothing a request that did not come through the
 * gateway says is believed — X-Forwarded-For included (http/client-address.ts) — and the gateway's
 * filter chain (IP filter, rate limits, the share-password throttle) cannot be walked around. It
 * binds INTERNAL_LISTEN_HOST (loopback by default), the port of DMS_HTTP_ADDR.
 */
export async function startFileServer(deps: FileServerDeps): Promise<{ server: Server; close(): Promise<void> }> {
  await deps.storage.prepare();
  const latency = new HttpLatency(deps.runtime.metrics);
  const gateway = new FilePortCredential(deps.config.dmsFilePortSecret);
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
  return tusRouteOf(path) ?? UNMATCHED_ROUTE;
}

async function handle(deps: FileServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://dms');
  if (url.pathname === UPLOAD && req.method === 'POST') return uploadRequest(deps, req, res);
  if (tusRouteOf(url.pathname)) return deps.tus.handle(req, res, url.pathname);
  const download = DOWNLOAD.exec(url.pathname);
  if (download && (req.method === 'GET' || req.method === 'HEAD')) return signedDownload(deps, req, res, download[1] ?? '', url.searchParams);
  const share = SHARE.exec(url.pathname);
  if (share && (req.method === 'GET' || req.method === 'HEAD')) return publicDownload(deps, req, res, share[1] ?? '', url.searchParams);
  const password = SHARE_PASSWORD.exec(url.pathname);
  if (password && req.method === 'POST') return validatePassword(deps, req, res, password[1] ?? '');
  req.resume();
  throw new DomainError('SVC-SYS-4001', 'path.notFound', { path: url.pathname.slice(0, 200) });
}

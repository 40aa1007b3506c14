import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Request, Response, Router } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { DomainError } from '@platform/libs/errors/domain-error.ts';
import { sendError } from '../http/errors.ts';
import { routerFor, type RouteTable } from './route.ts';

/**
 * The routes whose bodies are file bytes (platform-interface.md §4.6): proxied, streamed both ways,
 * to dms-svc's HTTP server after the filter chain, and registered before the JSON body parser so
 * that nothing here reads them. The upload is a JWT path (the gateway checks the token as for every
 * call, and dms-svc proves it again itself); the download is a signed URL (middleware/paths.ts).
 * GET routes answer HEAD too. X-Forwarded-For carries exactly one address: the client's as this
 * gateway proved it.
 */
export const DMS_FILE_BYTE_ROUTES = {
  uploadFile: { method: 'post', path: '/api/dms-file/upload' },
  downloadFile: { method: 'get', path: '/api/dms-file/download/:id' },
} as const satisfies RouteTable;

/** A request handed on to dms-svc, settled once its response has finished or closed. */
export type Forward = (req: Request, res: Response) => Promise<void>;

/** The proxy to dms-svc at `httpAddr` (host:port). http-proxy-middleware streams; it buffers nothing. */
export function dmsProxy(httpAddr: string): Forward {
  const proxy = createProxyMiddleware<Request, Response>({
    target: `http://${httpAddr}`,
    // A connection per request, never one from a pool: dms-svc answers some requests before it has
    // read their body (a refused upload, an early 4xx) and then closes the connection, which a pooled
    // socket would not know yet; the next request on it would be reset and answered 503 (seen in full
    // runs). On loopback or in-cluster a new connection costs far less than any file transfer.
    agent: new Agent({ keepAlive: false }),
    xfwd: true,
    proxyTimeout: 0,
    on: {
      error: (_error: Error, req: IncomingMessage, res: ServerResponse | unknown) => {
        const response = res as Response;
        if (typeof response.status !== 'function') return;
        if (response.headersSent) response.destroy();
        else sendError(req as Request, response, new DomainError('SVC-SYS-5002', 'service.unavailable'));
      },
    },
  });
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      // dms-svc audits the client's address (docs/decisions.md): the one this gateway proved — the
      // address its IP filter judged (express's req.ip under TRUST_PROXY) — replaces whatever
      // X-Forwarded-For the client sent (httpxy's xfwd keeps a client's header as it is)
      req.headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? '';
      res.on('finish', () => resolve());
      res.on('close', () => resolve());
      void proxy(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
    });
}

/** The file byte routes, proxied by `forward`. */
export function dmsFileByteRoutes(forward: Forward): Router {
  return routerFor(DMS_FILE_BYTE_ROUTES, { uploadFile: forward, downloadFile: forward });
}

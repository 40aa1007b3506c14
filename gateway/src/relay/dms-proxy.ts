import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { FILE_PORT_CREDENTIAL_HEADER, type FilePortCredential } from '@platform/kit/auth/file-port-credential.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { clientIp, requestIdOf } from '../http/context.ts';
import type { Forward } from './forward.ts';

/**
 * The proxy for requests with a body (the upload, validate-password) to dms-svc at `httpAddr`
 * (host:port): http-proxy-middleware streams the body as it arrives and buffers nothing. Downloads
 * go through download-relay.ts instead, which reads the answer into reusable buffers. Each request
 * carries the gateway's credential, which dms-svc's file port asks of every request; it is set on
 * the outgoing request only, so it replaces any a client sent and never enters `req.headers` (where
 * a log line could find it).
 */
export function dmsProxy(httpAddr: string, credential: FilePortCredential): Forward {
  // each request's way to fail its Forward while nothing was answered
  const refusals = new WeakMap<IncomingMessage, (error: DomainError) => void>();
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
      proxyReq: (proxyReq) => proxyReq.setHeader(FILE_PORT_CREDENTIAL_HEADER, credential.value),
      error: (_error: Error, req: IncomingMessage, res: ServerResponse | unknown) => {
        const response = res as Response;
        if (typeof response.status !== 'function') return;
        if (response.headersSent) response.destroy();
        // for the gateway's error handler to answer, as every 5xx: with a refId and its exception-log entry (http/errors.ts)
        else refusals.get(req)?.(new DomainError('SVC-SYS-5002', 'service.unavailable'));
      },
    },
  });
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      refusals.set(req, reject);
      // dms-svc audits the client's address (docs/adr/0034-client-address-of-byte-requests.md): the one this gateway proved — the
      // address its IP filter judged (express's req.ip under TRUST_PROXY) — replaces whatever
      // X-Forwarded-For the client sent (httpxy's xfwd keeps a client's header as it is)
      req.headers['x-forwarded-for'] = clientIp(req);
      // likewise the request's id as this gateway gave it, for dms-svc's log lines
      req.headers['x-request-id'] = requestIdOf(req);
      // with tracing on, an upload's response has eleven 'close' listeners once the proxy pipes
      // dms-svc's answer into it (Node warns past ten): each is this one response's, gone with it,
      // not a leak
      res.setMaxListeners(20);
      res.on('finish', () => resolve());
      res.on('close', () => resolve());
      void proxy(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
    });
}

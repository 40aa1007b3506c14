import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '@platform/kit/log/logger.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from '@platform/kit/log/request-id.ts';
import { stateOf } from './context.ts';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id (X-Request-Id), given by the first handler. */
    id: string;
    /** A logger whose lines carry the request's id. */
    log: Logger;
  }
}

/** What the access line says of a request (docs/adr/0044-logs-are-json-lines-with-an-access.md). */
interface AccessFields {
  requestId: string;
  method: string | undefined;
  /** The matched route's template (`/api/branch/:key`), never the path: ids and tokens stay out. */
  route: string | undefined;
  status: number;
  durationMs: number;
  userCode: string | undefined;
  crProcessId: number | undefined;
}

function accessFields(req: IncomingMessage, res: ServerResponse, durationMs: number): AccessFields {
  // every router is mounted at the root, so the route's own path is the whole template
  const { route } = req as Request;
  // the token's claims are unverified (middleware/jwt.ts): a 401 is the answer to a token that did
  // not verify or is not live, whose claims name no one
  const claims = res.statusCode === 401 ? undefined : stateOf(res as Response).claims;
  return {
    requestId: req.id,
    method: req.method,
    route: typeof route?.path === 'string' ? route.path : undefined,
    status: res.statusCode,
    durationMs,
    userCode: claims?.userCode,
    crProcessId: claims?.crProcessId,
  };
}

const outcome = (req: IncomingMessage, res: ServerResponse): string => (res.writableEnded && !req.readableAborted ? 'request completed' : 'request aborted');

/**
 * The first handler of a gateway app: gives the request its id — the client's X-Request-Id when
 * well-formed, else a new UUID — and returns it as X-Request-Id on whatever answers it; `req.log`
 * is a logger bound to the id. With `accessLines` (the public port), one `info` line per request
 * once its response has finished or its client gone: requestId, method, route, status,
 * durationMs, userCode, crProcessId. Nothing of the request's headers, path or body is written.
 *
 * Written here rather than with pino-http, whose middleware makes a second child logger of each
 * request's logger, used or not: the request's logger becomes the prototype of another object, and
 * V8 gives every prototype a map of its own in the old generation, which only a mark-compact frees.
 * That cost 6.6 µs and about 200 bytes of old generation per request (bench/README.md, "Garbage
 * collection").
 *
 * @example
 * app.use(accessLog(log, { accessLines: true }));
 */
export function accessLog(log: Logger, options: { accessLines: boolean }): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    res.setHeader('X-Request-Id', requestId);
    req.id = requestId;
    req.log = log.child({ requestId });
    if (options.accessLines) {
      const start = Date.now();
      // 'close' follows 'finish' on every response (node:http emits it once the response is done)
      // and comes alone when the client went first: one listener hears both ends. A line below the
      // logger's level is not built at all.
      res.once('close', () => {
        if (log.isLevelEnabled('info')) log.info(accessFields(req, res, Date.now() - start), outcome(req, res));
      });
    }
    next();
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@platform/libs/log/logger.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from '@platform/libs/log/request-id.ts';
import { stateOf } from './context.ts';

/** What the access line says of a request (docs/decisions.md "Logs"). */
interface AccessFields {
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
  const claims = stateOf(res as Response).claims;
  return {
    method: req.method,
    route: typeof route?.path === 'string' ? route.path : undefined,
    status: res.statusCode,
    durationMs,
    userCode: claims?.userCode,
    crProcessId: claims?.crProcessId,
  };
}

const omitted = (): undefined => undefined;
const outcome = (req: IncomingMessage, res: ServerResponse): string => (res.writableEnded && !req.readableAborted ? 'request completed' : 'request aborted');

/**
 * The first handler of a gateway app: gives the request its id — the client's X-Request-Id when
 * well-formed, else a new UUID — and returns it as X-Request-Id on whatever answers it; `req.log`
 * is a logger bound to the id. With `accessLines` (the public port), one `info` line per request
 * once its response has finished or its client gone: requestId, method, route, status,
 * durationMs, userCode, crProcessId. Nothing of the request's headers, path or body is written.
 *
 * @example
 * app.use(accessLog(log, { accessLines: true }));
 */
export function accessLog(log: Logger, options: { accessLines: boolean }): RequestHandler {
  return pinoHttp({
    logger: log,
    autoLogging: options.accessLines,
    genReqId: (req, res) => {
      const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
      res.setHeader('X-Request-Id', requestId);
      return requestId;
    },
    // one child logger per request carrying only the id; pino-http's own request and response
    // objects (headers, URL with its query) are never serialized (`err` keeps the logger's own
    // serializer, for req.log's failure lines)
    quietReqLogger: true,
    quietResLogger: true,
    wrapSerializers: false,
    serializers: { req: omitted, res: omitted },
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    customSuccessObject: (req, res, value: { durationMs: number }) => accessFields(req, res, value.durationMs),
    // a 5xx is an access line like any other: the failure itself has its own line (http/errors.ts)
    customErrorObject: (req, res, _error, value: { durationMs: number }) => accessFields(req, res, value.durationMs),
    customSuccessMessage: outcome,
    customErrorMessage: outcome,
  }) as unknown as RequestHandler;
}

import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, Request, Response } from 'express';
import { ERRORS, httpStatusOf } from '@platform/kit/errors/codes.ts';
import { DomainError, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { fromGrpcError } from '@platform/kit/errors/grpc-status.ts';
import type { ExceptionRecorder } from '@platform/kit/grpc/exception-log.ts';
import { translate, type Language } from '@platform/kit/i18n/messages.ts';
import { scrubSecrets } from '@platform/kit/log/redaction.ts';
import type { SessionCheck } from '../auth/session-check.ts';
import { languageOf, requestIdOf, sessionIsLive, stateOf } from './context.ts';
import { requestError } from '@platform/kit/http/request-errors.ts';

/**
 * The error body of docs/interface.md#errors: status, error_code, message in `lang`, refId on 5xx,
 * and `field` when the refusal names one field (a duplicate code, a value out of range), so that a
 * form can say it beside that field (docs/adr/0123-errors-in-a-clerk-s-words.md).
 */
export function errorBody(lang: Language, error: DomainError): Record<string, string> {
  const body: Record<string, string> = {
    status: 'ERROR',
    error_code: error.code,
    message: translate(lang, error.messageKey, error.params),
  };
  if (error.params.refId) body.refId = error.params.refId;
  if (error.params.field) body.field = error.params.field;
  return body;
}

/** The error body in the caller's language, with the code's HTTP status (httpStatusOf). */
export function sendError(req: Request, res: Response, error: DomainError): void {
  res.status(httpStatusOf(error)).json(errorBody(languageOf(req, res), error));
}

/**
 * Runs `answer`, an error answer the gateway gives itself rather than a service: on a JWT path, only
 * once the token's user and session are found still live (the services check them on every call they
 * serve; the gateway does not, middleware/jwt.ts); a revoked token gets 401 SVC-SYS-1001 instead, as
 * it would from a service. A check core-svc cannot answer (unreachable, past its deadline) leaves the
 * answer as it was: none of these answers tells what a service guards, and a 404 or 400 turned 503
 * would blame the platform for the client's request (docs/adr/0038-where-a-token-s-session-is-checked.md).
 */
async function whenLive(req: Request, res: Response, sessions: SessionCheck, answer: () => void): Promise<void> {
  const live = await sessionIsLive(res, sessions).catch(() => true);
  if (res.headersSent || res.destroyed) return;
  if (live) answer();
  else sendError(req, res, unauthenticated());
}

/** A failure as the gateway sees it, whether a service answered it, and whether that service already logged it under its refId. */
interface Classified {
  domain: DomainError;
  /** A service's own status (it carries the error code): the service checked the caller's session first. */
  answeredByService: boolean;
  loggedByService: boolean;
}

/**
 * The last handler: domain errors and gRPC statuses get their codes; a request that express or the
 * body parser could not read (a 4xx of theirs) is 400 (413 when too large, see request-errors.ts);
 * anything else is 500 SVC-SYS-5001. Every 5xx carries a refId and has an exception-log entry under
 * it: a service's own 5001 was logged by that service; the gateway logs the rest (its own failures,
 * unreachable or timed-out services). An error a service did not answer is the gateway's own
 * answer: on a JWT path it waits for the session check (whenLive). The relays to dms-svc hand their
 * failures here too (relay/dms-proxy.ts, relay/download-relay.ts).
 */
export function errorHandler(record: ExceptionRecorder, sessions?: SessionCheck): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const classified = classify(error);
    if (classified.answeredByService || !sessions) answer(record, error, classified, req, res);
    else void whenLive(req, res, sessions, () => answer(record, error, classified, req, res));
  };
}

function answer(record: ExceptionRecorder, error: unknown, classified: Classified, req: Request, res: Response): void {
  sendError(req, res, logged(record, error, classified, req, res));
}

/**
 * A failure as its domain error, classified as the error handler does; a 5xx no service logged is
 * logged here under a new refId, which the error then carries. For the answers of a bulk's items
 * (routes/bulk.ts), each its own error body.
 */
export function failureOf(record: ExceptionRecorder, error: unknown, req: Request, res: Response): { domain: DomainError; answeredByService: boolean } {
  const classified = classify(error);
  return { domain: logged(record, error, classified, req, res), answeredByService: classified.answeredByService };
}

function logged(record: ExceptionRecorder, error: unknown, { domain, loggedByService }: Classified, req: Request, res: Response): DomainError {
  if (ERRORS[domain.code].http >= 500 && !loggedByService) {
    const refId = domain.params.refId ?? randomUUID();
    domain.params.refId = refId;
    const claims = stateOf(res).claims;
    // the path may hold a credential (a share link's token; a signed URL's is in the query)
    const path = scrubSecrets(req.originalUrl);
    req.log.error({ path: scrubSecrets(req.path), method: req.method, refId, code: domain.code, err: error }, 'request failed');
    record({
      refId,
      service: 'gateway',
      errorCode: domain.code === 'SVC-SYS-5002' ? 'SVC-SYS-5002' : 'SVC-SYS-5001',
      error,
      path,
      method: req.method,
      userCode: claims?.userCode,
      crProcessId: claims?.crProcessId,
      projectCode: typeof req.headers['x-project-code'] === 'string' ? req.headers['x-project-code'] : undefined,
      requestId: requestIdOf(req),
    });
  }
  return domain;
}

function classify(error: unknown): Classified {
  if (error instanceof DomainError) return { domain: error, answeredByService: false, loggedByService: false };
  const unreadable = requestError(error);
  if (unreadable) return { domain: unreadable, answeredByService: false, loggedByService: false };
  if (error instanceof Error && 'code' in error && 'metadata' in error) {
    const domain = fromGrpcError(error);
    // a service's status carries its error code; grpc-js's own (unreachable, deadline) do not
    const fromService = (error as { metadata: { get(key: string): unknown[] } }).metadata.get('x-error-code').length > 0;
    // a service's 5001 arrives with the refId under which that service logged it
    return { domain, answeredByService: fromService, loggedByService: fromService && domain.code === 'SVC-SYS-5001' };
  }
  return { domain: new DomainError('SVC-SYS-5001', 'server.error'), answeredByService: false, loggedByService: false };
}

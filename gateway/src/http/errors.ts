import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, Request, Response } from 'express';
import { ERRORS } from '@platform/libs/errors/codes.ts';
import { DomainError } from '@platform/libs/errors/domain-error.ts';
import { fromGrpcError } from '@platform/libs/errors/grpc-status.ts';
import type { ExceptionRecorder } from '@platform/libs/grpc/exception-log.ts';
import { translate, type Language } from '@platform/libs/i18n/messages.ts';
import { scrubSecrets } from '@platform/libs/log/redaction.ts';
import { languageOf, requestIdOf, stateOf } from './context.ts';
import { requestError } from './request-errors.ts';

/** The error body of decisions.md §6: status, error_code, message in `lang`, refId on 5xx. */
export function errorBody(lang: Language, error: DomainError): Record<string, string> {
  const body: Record<string, string> = {
    status: 'ERROR',
    error_code: error.code,
    message: translate(lang, error.messageKey, error.params),
  };
  if (error.params.refId) body.refId = error.params.refId;
  return body;
}

/** The error body in the caller's language, with the code's HTTP status. */
export function sendError(req: Request, res: Response, error: DomainError): void {
  res.status(ERRORS[error.code].http).json(errorBody(languageOf(req, res), error));
}

/** A failure as the gateway sees it, and whether a service already logged it under its refId. */
interface Classified {
  domain: DomainError;
  loggedByService: boolean;
}

/**
 * The last handler: domain errors and gRPC statuses get their codes; a request that express or the
 * body parser could not read (a 4xx of theirs) is 400 (413 when too large, see request-errors.ts);
 * anything else is 500 SVC-SYS-5001. Every 5xx carries a refId and has an exception-log entry under
 * it: a service's own 5001 was logged by that service; the gateway logs the rest (its own failures,
 * unreachable or timed-out services).
 */
export function errorHandler(record: ExceptionRecorder): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const { domain, loggedByService } = classify(error);
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
    sendError(req, res, domain);
  };
}

function classify(error: unknown): Classified {
  if (error instanceof DomainError) return { domain: error, loggedByService: false };
  const unreadable = requestError(error);
  if (unreadable) return { domain: unreadable, loggedByService: false };
  if (error instanceof Error && 'code' in error && 'metadata' in error) {
    const domain = fromGrpcError(error);
    // a service's 5001 arrives with the refId under which that service logged it
    const fromService = domain.code === 'SVC-SYS-5001' && (error as { metadata: { get(key: string): unknown[] } }).metadata.get('x-error-code').length > 0;
    return { domain, loggedByService: fromService };
  }
  return { domain: new DomainError('SVC-SYS-5001', 'server.error'), loggedByService: false };
}

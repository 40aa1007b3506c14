import type { ErrorRequestHandler, Request, Response } from 'express';
import { ERRORS } from '@platform/libs/errors/codes.ts';
import { DomainError } from '@platform/libs/errors/domain-error.ts';
import { fromGrpcError } from '@platform/libs/errors/grpc-status.ts';
import { translate } from '@platform/libs/i18n/messages.ts';
import { describeError, type Logger } from '@platform/libs/log/logger.ts';
import { languageOf } from './context.ts';

/** The error body of decisions.md §6: status, error_code, message in the caller's language, refId on 5xx. */
export function sendError(req: Request, res: Response, error: DomainError): void {
  const body: Record<string, string> = {
    status: 'ERROR',
    error_code: error.code,
    message: translate(languageOf(req, res), error.messageKey, error.params),
  };
  if (error.params.refId) body.refId = error.params.refId;
  res.status(ERRORS[error.code].http).json(body);
}

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
}

/**
 * The last handler: domain errors and gRPC statuses get their codes; a body the JSON parser refused
 * is 400 (413 when too large); anything else is 500 SVC-SYS-5001 with a refId, its detail only in
 * the log.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(req, res, toDomain(error, log, req));
  };
}

function toDomain(error: unknown, log: Logger, req: Request): DomainError {
  if (error instanceof DomainError) return error;
  const parser = error as BodyParserError;
  if (parser.type === 'entity.too.large') return new DomainError('SVC-SYS-3001', 'body.tooLarge', { limit: String(parser.limit ?? '') });
  if (parser.type === 'entity.parse.failed') return new DomainError('SVC-SYS-2001', 'body.malformed');
  if (typeof parser.type === 'string' && parser.status !== undefined && parser.status < 500) {
    return new DomainError('SVC-SYS-2001', 'body.malformed');
  }
  if (error instanceof Error && 'code' in error && 'metadata' in error) {
    const domain = fromGrpcError(error);
    if (domain.code === 'SVC-SYS-5001' || domain.code === 'SVC-SYS-5002') {
      log.error('backend call failed', { path: req.path, method: req.method, refId: domain.params.refId, ...describeError(error) });
    }
    return domain;
  }
  const domain = new DomainError('SVC-SYS-5001', 'server.error', { refId: crypto.randomUUID() });
  log.error('unexpected failure', { path: req.path, method: req.method, refId: domain.params.refId, ...describeError(error) });
  return domain;
}

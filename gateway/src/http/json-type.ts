import type { RequestHandler } from 'express';
import { DomainError } from '@platform/kit/errors/domain-error.ts';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * A POST, PUT or PATCH that carries a body must say it is JSON (`application/json`, the one type
 * the body parser reads), else 400 SVC-SYS-2001 naming Content-Type, before the body is read. The
 * parser leaves any other type unread, so a route whose body is optional (an accrual's approve,
 * invoice, cancel) would otherwise act on a `text/plain` body as if none had come, while a route
 * that needs one refuses it as "not a JSON object": refused alike now, by the header that is wrong.
 * A request without a body, or with an empty one (Content-Length: 0), is not judged.
 *
 * @example
 * POST /api/accrual/7/cancel, Content-Type: text/plain, body "x" → 400 "Header is invalid: Content-Type"
 */
export const jsonTypeOnly: RequestHandler = (req, _res, next) => {
  if (!WITH_BODY.has(req.method) || !carriesBody(req.headers) || req.is('application/json')) {
    next();
    return;
  }
  next(new DomainError('SVC-SYS-2001', 'header.invalid', { header: 'Content-Type' }));
};

/** A body of at least one byte announced, or one of unannounced length (chunked). */
function carriesBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return typeof length === 'string' && length !== '0' && length.trim() !== '' && Number(length) !== 0;
}

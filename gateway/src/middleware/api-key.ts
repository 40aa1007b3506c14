import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { DomainError } from '@platform/libs/errors/domain-error.ts';
import { categoryOfRequest } from '../http/context.ts';

/** The header that carries the API key (docs/interface.md#authentication). */
export const API_KEY_HEADER = 'X-API-Key';
const HEADER_NAME = API_KEY_HEADER.toLowerCase();

/**
 * X-API-Key on API-key paths, compared in constant time (both sides hashed first, so neither the
 * length nor a prefix leaks); missing or wrong: 401 SVC-SYS-1004.
 */
export function apiKeyCheck(apiKey: string): RequestHandler {
  const expected = createHash('sha256').update(apiKey).digest();
  return (req, res, next) => {
    if (categoryOfRequest(req, res) !== 'api-key') return next();
    const given = req.headers[HEADER_NAME];
    const digest = createHash('sha256')
      .update(typeof given === 'string' ? given : '')
      .digest();
    if (typeof given !== 'string' || !timingSafeEqual(digest, expected)) {
      return next(new DomainError('SVC-SYS-1004', 'apiKey.invalid'));
    }
    next();
  };
}

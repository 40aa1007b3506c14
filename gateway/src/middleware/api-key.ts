import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { ConsoleCsrf } from '../console/csrf.ts';
import { categoryOfRequest, stateOf } from '../http/context.ts';
import { isConsoleOperatorCall } from './console-operator.ts';

/** The header that carries the API key (docs/interface.md#authentication). */
export const API_KEY_HEADER = 'X-API-Key';
const HEADER_NAME = API_KEY_HEADER.toLowerCase();

/**
 * X-API-Key on API-key paths, compared in constant time (both sides hashed first, so neither the
 * length nor a prefix leaks); missing or wrong: 401 SVC-SYS-1004. A request without the key that
 * is the console's call of an operator path (console-operator.ts) goes on as a JWT request instead:
 * from here on the chain treats it as one (the JWT step verifies its token, 401 SVC-SYS-1001; the
 * rate limit counts it in the JWT tier), and core-svc serves it to a live super user alone.
 */
export function apiKeyCheck(apiKey: string, csrf: ConsoleCsrf): RequestHandler {
  const expected = createHash('sha256').update(apiKey).digest();
  return (req, res, next) => {
    if (categoryOfRequest(req, res) !== 'api-key') return next();
    const given = req.headers[HEADER_NAME];
    if (given === undefined && isConsoleOperatorCall(req, csrf)) {
      stateOf(res).category = 'jwt';
      return next();
    }
    const digest = createHash('sha256')
      .update(typeof given === 'string' ? given : '')
      .digest();
    if (typeof given !== 'string' || !timingSafeEqual(digest, expected)) {
      return next(new DomainError('SVC-SYS-1004', 'apiKey.invalid'));
    }
    next();
  };
}

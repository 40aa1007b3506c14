import type { RequestHandler } from 'express';
import type { TokenService } from '@platform/libs/auth/jwt.ts';
import { tokenOf } from '@platform/libs/auth/request-token.ts';
import { DomainError, unauthenticated } from '@platform/libs/errors/domain-error.ts';
import type { SessionCheck } from '../auth/session-check.ts';
import type { SessionsSeen } from '../auth/sessions-seen.ts';
import { categoryOfRequest, stateOf } from '../http/context.ts';

/**
 * On JWT paths: an HS512 token that verifies, has not expired, and whose user and session are
 * still live (tokenVersion, sid), else 401 SVC-SYS-1001. A database that cannot answer is 503.
 * A live session is noted as seen (its lastSeenAt).
 */
export function jwtCheck(tokens: TokenService, sessions: SessionCheck, seen: SessionsSeen): RequestHandler {
  return (req, res, next) => {
    if (categoryOfRequest(req, res) !== 'jwt') return next();
    const token = tokenOf(req.headers.cookie, req.headers.authorization);
    const claims = token ? tokens.verifyUser(token) : undefined;
    if (!token || !claims) return next(unauthenticated());
    sessions.isLive(claims).then(
      (live) => {
        if (!live) return next(unauthenticated());
        seen.note(claims.sid);
        const state = stateOf(res);
        state.token = token;
        state.claims = claims;
        next();
      },
      () => next(new DomainError('SVC-SYS-5002', 'service.unavailable')),
    );
  };
}

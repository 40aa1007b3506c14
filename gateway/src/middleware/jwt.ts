import type { RequestHandler } from 'express';
import { parseCookie } from 'cookie';
import type { TokenService } from '@platform/libs/auth/jwt.ts';
import { DomainError, unauthenticated } from '@platform/libs/errors/domain-error.ts';
import type { SessionCheck } from '../auth/session-check.ts';
import type { SessionsSeen } from '../auth/sessions-seen.ts';
import { categoryOfRequest, stateOf } from '../http/context.ts';

export const SESSION_COOKIE = 'SVC_SESSION';

/** The token of a request: the SVC_SESSION cookie first, then the bearer header (platform-interface.md §5). */
export function tokenOf(cookieHeader: string | undefined, authorization: string | undefined): string | undefined {
  if (cookieHeader) {
    const cookie = parseCookie(cookieHeader)[SESSION_COOKIE];
    if (cookie) return cookie;
  }
  if (authorization && /^Bearer /i.test(authorization)) return authorization.slice(7).trim() || undefined;
  return undefined;
}

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

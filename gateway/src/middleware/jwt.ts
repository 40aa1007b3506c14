import type { RequestHandler } from 'express';
import type { TokenService } from '@platform/kit/auth/jwt.ts';
import { tokenOf } from '@platform/kit/auth/request-token.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { isAccessToken } from '@platform/kit/auth/access-token-form.ts';
import type { SessionsSeen } from '../auth/sessions-seen.ts';
import { categoryOfRequest, stateOf } from '../http/context.ts';

/**
 * On JWT paths: an HS512 token that verifies and has not expired, else 401 SVC-SYS-1001. Whether
 * its user and session are still live (tokenVersion, sid) is not read here: every service reads
 * that itself, with the caller's live access, on every call it serves (libs/service-kit/src/auth/access.ts), so
 * a read here would only repeat it. An answer the gateway gives without a service asks core-svc
 * first (http/errors.ts), so that a revoked token gets 401 there too. The session is noted as seen (its
 * lastSeenAt; core moves only open sessions'). A personal access token (`svcpat_`) is handed on
 * unverified: the services resolve it from its row (docs/adr/0134-scoped-personal-access-tokens.md).
 */
export function jwtCheck(tokens: TokenService, seen: SessionsSeen): RequestHandler {
  return (req, res, next) => {
    if (categoryOfRequest(req, res) !== 'jwt') return next();
    const token = tokenOf(req.headers.cookie, req.headers.authorization);
    // a personal access token is the services' to resolve (docs/adr/0134-scoped-personal-access-tokens.md)
    if (token && isAccessToken(token)) {
      stateOf(res).token = token;
      return next();
    }
    const claims = token ? tokens.verifyUser(token) : undefined;
    if (!token || !claims) return next(unauthenticated());
    seen.note(claims.sid);
    const state = stateOf(res);
    state.token = token;
    state.claims = claims;
    next();
  };
}

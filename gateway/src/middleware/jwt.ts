import type { RequestHandler } from 'express';
import { parseCookie } from 'cookie';
import type { TokenService } from '@platform/libs/auth/jwt.ts';
import { unauthenticated } from '@platform/libs/errors/domain-error.ts';
import { stateOf } from '../http/context.ts';
import { categoryOf } from './paths.ts';

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

/** On JWT paths: an HS512 token that verifies and has not expired, else 401 SVC-SYS-1001. */
export function jwtCheck(tokens: TokenService): RequestHandler {
  return (req, res, next) => {
    if (categoryOf(req.path) !== 'jwt') return next();
    const token = tokenOf(req.headers.cookie, req.headers.authorization);
    const claims = token ? tokens.verifyUser(token) : undefined;
    if (!token || !claims) return next(unauthenticated());
    const state = stateOf(res);
    state.token = token;
    state.claims = claims;
    next();
  };
}

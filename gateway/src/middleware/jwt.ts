import type { RequestHandler } from 'express';
import { tokenOf } from '@platform/kit/auth/request-token.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { isAccessToken } from '@platform/kit/auth/access-token-form.ts';
import type { SessionsSeen } from '../auth/sessions-seen.ts';
import type { TokenClaims } from '../auth/token-claims.ts';
import { categoryOfRequest, stateOf } from '../http/context.ts';

/**
 * On JWT paths: the token (cookie, then bearer) is handed on to the service that serves the call,
 * which verifies it (HS512 signature, expiry, claims) and reads whether its user and session are
 * live (libs/service-kit/src/grpc/server.ts authenticate; dms-svc's file port likewise): the gateway
 * holds no signing key (docs/adr/0138-an-edge-without-the-signing-secret.md). What cannot be a live
 * user token (none, not three base64url parts, not an HS512 header, a payload without the user
 * claims, expired) is refused here at once with 401 SVC-SYS-1001, as before; its decoded claims
 * refuse, they never grant. An answer the gateway gives without a service asks core-svc first
 * (http/errors.ts), which verifies the token, so that a forged or revoked token gets 401 there too.
 * The token is noted as seen (core-svc moves its session's lastSeenAt once it has verified it). A
 * personal access token (`svcpat_`) is handed on as it is: the services resolve it from its row
 * (docs/adr/0134-scoped-personal-access-tokens.md).
 */
export function jwtCheck(claimsOf: TokenClaims, seen: SessionsSeen): RequestHandler {
  return (req, res, next) => {
    if (categoryOfRequest(req, res) !== 'jwt') return next();
    const token = tokenOf(req.headers.cookie, req.headers.authorization);
    // a personal access token is the services' to resolve (docs/adr/0134-scoped-personal-access-tokens.md)
    if (token && isAccessToken(token)) {
      stateOf(res).token = token;
      return next();
    }
    const claims = token ? claimsOf.of(token) : undefined;
    if (!token || !claims) return next(unauthenticated());
    seen.note(token);
    const state = stateOf(res);
    state.token = token;
    state.claims = claims;
    next();
  };
}

import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { coreAccessSource } from '@platform/service-kit/auth/access.ts';
import type { TokenService } from '@platform/kit/auth/jwt.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { isAccessToken } from '@platform/kit/auth/access-token-form.ts';
import { accessTokenClaims } from '@platform/service-kit/auth/access-token.ts';
import type { CheckSessionRequest, CheckSessionResponse } from '@platform/kit/gen/platform/core/v1/session.ts';

/** No role is asked: CheckSession wants the token's user and session, not what it may do. */
const NO_ROLES: ReadonlySet<string> = new Set();

/**
 * SessionService.CheckSession, for internal callers only (the gateway's own credential among them): whether a user token is live now,
 * by the very check every service makes of every call it serves (libs/service-kit/src/auth/access.ts
 * `coreAccessSource`; none of its own SQL, so it follows that check wherever it goes). A token that
 * does not verify (forged, expired, malformed) is not live. The gateway asks it before an answer of
 * its own on a JWT path (docs/adr/0038-where-a-token-s-session-is-checked.md).
 *
 * @example
 * await client.checkSession({ token }, internal) // { live: false } → the gateway answers 401 SVC-SYS-1001
 */
export function checkSession(tokens: TokenService): (request: CheckSessionRequest, ctx: CallContext) => Promise<CheckSessionResponse> {
  return async (request, ctx) => {
    if (ctx.caller.kind !== 'internal') throw unauthenticated();
    const claims = isAccessToken(request.token) ? await accessTokenClaims(ctx.em, request.token, undefined) : tokens.verifyUser(request.token);
    if (!claims) return { live: false };
    return { live: (await coreAccessSource(ctx.em, claims, { roles: NO_ROLES })) !== undefined };
  };
}

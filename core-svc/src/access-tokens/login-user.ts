import { userOf, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { accessTokenIdOf } from '@platform/service-kit/auth/access-token.ts';
import type { VerifiedClaims } from '@platform/kit/auth/jwt.ts';
import { forbidden } from '@platform/kit/errors/domain-error.ts';

/**
 * The user behind a call made with a login's token; 403 SVC-SYS-1003 for a personal access token,
 * which never makes another token, changes its user's password, switches its tenant or logs out (it
 * is revoked instead): docs/adr/0136-what-a-token-may-not-do-and-its-expiry.md.
 *
 * @example
 * const claims = loginUserOf(ctx); // as userOf, but not for svcpat_ bearers
 */
export function loginUserOf(ctx: CallContext): VerifiedClaims {
  const claims = userOf(ctx);
  if (accessTokenIdOf(claims)) throw forbidden();
  return claims;
}

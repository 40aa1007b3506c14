import { userOf, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { UserClaims } from '@platform/kit/auth/jwt.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { accessTokenScopeOf } from '@platform/service-kit/auth/access-token.ts';
import type { MeResponse } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { identityOf, userProcessView, type Identity } from './identity.ts';
import { rolesHeld } from './roles-held.ts';
import { sessionOf } from './token-session.ts';

/** AuthService.Me: the caller's own view of its session, with the roles it holds in its tenant now. */
export async function me(_request: unknown, ctx: CallContext): Promise<MeResponse> {
  const claims = userOf(ctx);
  // the roles on their own connection of the pool, while the session and identity are read
  const [roles, identity] = await Promise.all([
    rolesInCurrentTenant(ctx),
    sessionOf(ctx.em, claims).then(({ user }) => identityOf(ctx.em, user, unauthenticated)),
  ]);
  // a personal access token: the roles of its scope still held, and no super user's power (docs/adr/0135-a-token-s-roles-stay-within-its-user-s.md)
  const scope = accessTokenScopeOf(claims);
  if (scope)
    return {
      ...meOf(
        claims,
        identity,
        claims.accountNo,
        claims.crProcessId,
        roles.filter((role) => scope.includes(role)),
      ),
      superUser: false,
    };
  return meOf(claims, identity, claims.accountNo, claims.crProcessId, roles);
}

/**
 * The roles the caller holds in its token's tenant now, as its role checks would find them: none
 * unless it may work there (the live access's tenantHeld, true for a super user in any tenant).
 */
function rolesInCurrentTenant(ctx: CallContext): Promise<string[]> {
  if (ctx.caller.kind !== 'user' || !ctx.caller.access.tenantHeld) return Promise.resolve([]);
  return rolesHeld(ctx.em, ctx.caller.claims.userCode, ctx.caller.claims.crProcessId);
}

/** The answer of me, and the `me` of switch-account's answer. */
export function meOf(claims: UserClaims, identity: Identity, accountNo: string, crProcessId: number, roles: string[]): MeResponse {
  return {
    success: true,
    userCode: claims.userCode,
    superUser: identity.user.superUser === true,
    userProcess: userProcessView(identity),
    accountNo,
    crProcessId,
    roles,
  };
}

import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { loginUserOf } from '../access-tokens/login-user.ts';
import type { TokenService, UserClaims } from '@platform/kit/auth/jwt.ts';
import { forbidden, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { SwitchAccountRequest, SwitchAccountResponse } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { heldTenant } from '../resources/user-process/user-tenants.ts';
import { identityOf } from './identity.ts';
import { meOf } from './me.ts';
import { rolesHeld } from './roles-held.ts';
import { sessionOf } from './token-session.ts';

/**
 * AuthService.SwitchAccount: the caller's session moved to another tenant it holds, and a token for
 * the rest of that session's lifetime (docs/interface.md#identity).
 */
export function switchAccount(tokens: TokenService): (request: SwitchAccountRequest, ctx: CallContext) => Promise<SwitchAccountResponse> {
  return async (request, ctx) => {
    const claims = loginUserOf(ctx);
    const { user, session } = await sessionOf(ctx.em, claims);
    const identity = await identityOf(ctx.em, user, unauthenticated);
    // only a tenant the user holds now: a select of its active user-process naming an active account
    const target = await heldTenant(ctx.em, claims.userCode, request.accountNo);
    if (!target) throw forbidden();
    session.accountNo = target.accountNo;
    session.crProcessId = target.crProcessId;
    session.lastSeenAt = new Date();
    await ctx.em.flush();
    const { iat: _iat, exp: _exp, ...rest } = claims;
    const next: UserClaims = { ...rest, superUser: user.superUser === true, accountNo: target.accountNo, crProcessId: target.crProcessId };
    const remaining = Math.max(1, Math.floor(((session.expiresAt as Date).getTime() - Date.now()) / 1000));
    // the target is a tenant the user holds now (heldTenant): its roles count
    const roles = await rolesHeld(ctx.em, claims.userCode, target.crProcessId);
    return { token: tokens.sign(next, remaining), expiresIn: remaining, me: meOf(next, identity, target.accountNo, target.crProcessId, roles) };
  };
}

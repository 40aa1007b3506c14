import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { loginUserOf } from '../access-tokens/login-user.ts';
import type { TokenService } from '@platform/kit/auth/jwt.ts';
import type { CoreConfig } from '../config.ts';
import { endSession } from '../sessions/session-ended.ts';
import { changePassword } from './change-password.ts';
import { login } from './login.ts';
import { me } from './me.ts';
import { switchAccount } from './switch-account.ts';
import { onPlatformPath } from '@platform/service-kit/grpc/platform-path.ts';

/** Login and the caller's own view of its session (docs/interface.md#auth, docs/interface.md#identity). */
export function authHandlers(config: CoreConfig, tokens: TokenService) {
  const handlers = {
    login: login(config, tokens),
    me,
    switchAccount: switchAccount(tokens),
    changePassword: changePassword(config),
    /** Ends the caller's own session (the token stops being live everywhere at once). */
    async logout(_request: unknown, ctx: CallContext): Promise<object> {
      const claims = loginUserOf(ctx);
      await endSession(ctx.em, claims.sid, claims.userCode);
      return {};
    },
  };
  // a user's own sign-in state spans its tenants (its selects' accounts, its user record's tenant,
  // whose events a password change writes): the platform's identity path, keyed by the caller alone
  return onPlatformPath('identity', handlers);
}

import type { TokenService } from '@platform/kit/auth/jwt.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { CoreConfig } from '../config.ts';
import { listSignInProviders } from './sign-in-providers.ts';
import { finishSignIn, startSignIn } from './sign-in.ts';
import { signOut } from './sign-out.ts';

/** OidcSignInService: single sign-on with OpenID Connect (docs/interface.md#single-sign-on). */
export function oidcSignInHandlers(config: CoreConfig, tokens: TokenService, log: Logger) {
  return {
    listSignInProviders,
    startSignIn: startSignIn(),
    finishSignIn: finishSignIn(config, tokens, log),
    signOut,
  };
}

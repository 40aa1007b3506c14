import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import type { TokenService } from '@platform/kit/auth/jwt.ts';
import { verifyPassword } from '@platform/service-kit/auth/password.ts';
import type { CoreConfig } from '../config.ts';
import { DomainError, invalidField, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { LoginRequest, LoginResponse } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { isLanguage } from '@platform/kit/i18n/messages.ts';
import { verifyCaptcha } from './captcha.ts';
import { secondFactorChallengeFor } from './second-factor-challenge.ts';
import { loginIdentity } from './login-identity.ts';
import { loginTenantOf, openSession } from './open-session.ts';
import { passwordLoginAllowed } from './password-login.ts';

const LOGIN_FAILED = (): DomainError => new DomainError('SVC-SYS-1002', 'login.failed');

/**
 * AuthService.Login, for internal callers only (the gateway's login route, under its own credential): the user's
 * password checked, a session opened in the tenant of its user-process (or its first held one), and
 * a token for that session (docs/interface.md#auth). For a user with a second factor (or whose
 * tenant requires one) the session opens only with a right code along (`secondFactorCode`);
 * without one, the answer is a challenge in place of the session, which
 * SecondFactorService.CompleteLogin takes with the code. Every refusal of a user is the same 401
 * SVC-SYS-1002, so that an answer tells nothing of which part was wrong.
 */
export function login(config: CoreConfig, tokens: TokenService): (request: LoginRequest, ctx: CallContext) => Promise<LoginResponse> {
  return async (request, ctx) => {
    if (ctx.caller.kind !== 'internal') throw unauthenticated();
    if (!isLanguage(request.languageCode)) throw invalidField('languageCode', 'field.enum', { values: 'en, tr' });
    if (config.captcha) await verifyCaptcha(config.captcha, request.captchaToken, request.ipAddress);
    if (request.userCode === '' || request.password === '') throw LOGIN_FAILED();
    const found = await loginIdentity(ctx.em, request.userCode);
    const user = found?.user;
    const valid = await verifyPassword(request.password, user?.password, config.bcryptRounds);
    if (!found || !user || !valid || user.status !== true) throw LOGIN_FAILED();
    // a user of an identity provider logs in with a password only where the provider allows it
    if (!(await passwordLoginAllowed(ctx.em, user.userCode))) throw LOGIN_FAILED();
    const identity = found.identity;
    if (!identity) throw LOGIN_FAILED();
    const current = loginTenantOf(identity);
    if (!current) throw LOGIN_FAILED();
    // docs/adr/0127-a-second-factor-for-password-logins.md: no session yet for a user with a second factor, unless its code came along
    const secondFactor = await secondFactorChallengeFor(ctx.em, identity, request.languageCode, request.secondFactorCode);
    if (secondFactor)
      return { token: '', expiresAt: '', expiresIn: 0, userCode: user.userCode, source: 'DB', superUser: user.superUser === true, secondFactor };
    return openSession(ctx.em, config, tokens, identity, current, { ...request, languageCode: request.languageCode });
  };
}

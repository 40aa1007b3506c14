import { randomUUID } from 'node:crypto';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import type { TokenService, UserClaims } from '@platform/kit/auth/jwt.ts';
import { verifyPassword } from '@platform/service-kit/auth/password.ts';
import type { CoreConfig } from '../config.ts';
import { queryPrepared } from '@platform/service-kit/db/prepared.ts';
import { DomainError, invalidField, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { LoginRequest, LoginResponse } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { isLanguage } from '@platform/kit/i18n/messages.ts';
import { verifyCaptcha } from './captcha.ts';
import { userProcessView } from './identity.ts';
import { loginIdentity } from './login-identity.ts';
import { passwordLoginAllowed } from './password-login.ts';

const LOGIN_FAILED = (): DomainError => new DomainError('SVC-SYS-1002', 'login.failed');

/** The session_log row of a login (SessionEntity's columns; logout_at stays null). */
const INSERT_SESSION = {
  name: 'core-login-session',
  text: `insert into core.session_log
           (session_id, user_code, user_process_id, account_no, cr_process_id, ip_address, user_agent, project_code,
            login_at, last_seen_at, expires_at, active)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
};

/**
 * AuthService.Login, for the internal credential only (the gateway's login route): the user's
 * password checked, a session opened in the tenant of its user-process (or its first held one), and
 * a token for that session (docs/interface.md#auth). Every refusal of a user is the same 401
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
    const current = identity.selects.find((s) => s.crProcessId === identity.process.crProcessId) ?? identity.selects[0];
    if (!current) throw LOGIN_FAILED();

    const now = new Date();
    const expiresAt = new Date(now.getTime() + config.jwtTtlSeconds * 1000);
    const sessionId = randomUUID();
    // One prepared INSERT (no unit of work, no BEGIN/COMMIT around it): nothing else is written here.
    await queryPrepared(ctx.em, INSERT_SESSION, [
      sessionId,
      user.userCode,
      identity.process.id,
      current.accountNo,
      current.crProcessId,
      request.ipAddress || null,
      request.userAgent ? request.userAgent.slice(0, 1000) : null,
      request.projectCode?.slice(0, 100) ?? null,
      now,
      now,
      expiresAt,
      true,
    ]);

    const claims: UserClaims = {
      sub: user.userCode,
      userProcessId: identity.process.id,
      userCode: user.userCode,
      userDescription: identity.process.userDescription ?? user.userDescription,
      superUser: user.superUser === true,
      tokenVersion: Number(user.tokenVersion ?? 0),
      accountNo: current.accountNo,
      crProcessId: current.crProcessId,
      sid: sessionId,
      lang: request.languageCode,
    };
    return {
      token: tokens.sign(claims, config.jwtTtlSeconds),
      expiresAt: expiresAt.toISOString(),
      expiresIn: config.jwtTtlSeconds,
      userCode: claims.userCode,
      source: 'DB',
      superUser: claims.superUser,
      userProcess: userProcessView(identity),
    };
  };
}

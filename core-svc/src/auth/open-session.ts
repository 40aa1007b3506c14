import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TokenService, UserClaims } from '@platform/kit/auth/jwt.ts';
import { queryPrepared } from '@platform/service-kit/db/prepared.ts';
import type { Language } from '@platform/kit/i18n/messages.ts';
import type { LoginResponse } from '@platform/kit/gen/platform/core/v1/auth.ts';
import type { SelectView } from '../resources/user-process/user-process.operations.ts';
import type { CoreConfig } from '../config.ts';
import { userProcessView, type Identity } from './identity.ts';

/** The session_log row of a login (SessionEntity's columns; logout_at stays null). */
const INSERT_SESSION = {
  name: 'core-login-session',
  text: `insert into core.session_log
           (session_id, user_code, user_process_id, account_no, cr_process_id, ip_address, user_agent, project_code,
            login_at, last_seen_at, expires_at, active)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
};

/** Where a login's session is opened and what its token carries beside the identity. */
export interface SessionOrigin {
  ipAddress: string;
  userAgent: string;
  projectCode?: string | undefined;
  languageCode: Language;
}

/** The tenant a login opens its session in: its user-process's, or its first held one; undefined when it holds none. */
export function loginTenantOf(identity: Identity): SelectView | undefined {
  return identity.selects.find((s) => s.crProcessId === identity.process.crProcessId) ?? identity.selects[0];
}

/**
 * Opens a session for `identity` in `current` and signs its token: the answer of a login, whether
 * it took the password alone or the password and a second factor (docs/interface.md#auth).
 */
export async function openSession(
  em: EntityManager,
  config: CoreConfig,
  tokens: TokenService,
  identity: Identity,
  current: SelectView,
  origin: SessionOrigin,
): Promise<LoginResponse> {
  const { user } = identity;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + config.jwtTtlSeconds * 1000);
  const sessionId = randomUUID();
  // One prepared INSERT (no unit of work, no BEGIN/COMMIT around it): nothing else is written here.
  await queryPrepared(em, INSERT_SESSION, [
    sessionId,
    user.userCode,
    identity.process.id,
    current.accountNo,
    current.crProcessId,
    origin.ipAddress || null,
    origin.userAgent ? origin.userAgent.slice(0, 1000) : null,
    origin.projectCode?.slice(0, 100) ?? null,
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
    lang: origin.languageCode,
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
}

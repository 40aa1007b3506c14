import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TokenService, UserClaims } from '@platform/kit/auth/jwt.ts';
import type { Language } from '@platform/kit/i18n/messages.ts';
import type { LoginResponse } from '@platform/kit/gen/platform/core/v1/auth.ts';
import type { Identity } from '../auth/identity.ts';
import { userProcessView } from '../auth/identity.ts';

/** Where a session is opened from: the client as the gateway judged it. */
export interface SessionClient {
  ipAddress: string;
  userAgent: string;
  projectCode: string | undefined;
  languageCode: Language;
}

/**
 * Opens a platform session for `identity` in the tenant `crProcessId` as a password login does
 * (core-svc/src/auth/login.ts): a session_log row and a token bound to it (sid), answered as the
 * login answers. The tenant must be among the identity's selects.
 */
export async function openSession(
  em: EntityManager,
  tokens: TokenService,
  ttlSeconds: number,
  identity: Identity,
  crProcessId: number,
  client: SessionClient,
): Promise<{ sessionId: string; login: LoginResponse } | undefined> {
  const current = identity.selects.find((s) => s.crProcessId === crProcessId);
  if (!current) return undefined;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  const sessionId = randomUUID();
  await em.execute(
    `insert into core.session_log
       (session_id, user_code, user_process_id, account_no, cr_process_id, ip_address, user_agent, project_code,
        login_at, last_seen_at, expires_at, active)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, true)`,
    [
      sessionId,
      identity.user.userCode,
      identity.process.id,
      current.accountNo,
      current.crProcessId,
      client.ipAddress || null,
      client.userAgent ? client.userAgent.slice(0, 1000) : null,
      client.projectCode?.slice(0, 100) ?? null,
      now,
      now,
      expiresAt,
    ],
  );
  const claims: UserClaims = {
    sub: identity.user.userCode,
    userProcessId: identity.process.id,
    userCode: identity.user.userCode,
    userDescription: identity.process.userDescription ?? identity.user.userDescription,
    superUser: identity.user.superUser === true,
    tokenVersion: Number(identity.user.tokenVersion ?? 0),
    accountNo: current.accountNo,
    crProcessId: current.crProcessId,
    sid: sessionId,
    lang: client.languageCode,
  };
  return {
    sessionId,
    login: {
      token: tokens.sign(claims, ttlSeconds),
      expiresAt: expiresAt.toISOString(),
      expiresIn: ttlSeconds,
      userCode: claims.userCode,
      source: 'DB',
      superUser: claims.superUser,
      userProcess: userProcessView(identity),
    },
  };
}

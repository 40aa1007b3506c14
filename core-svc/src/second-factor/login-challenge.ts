/**
 * The password step's side of the second factor (docs/adr/0127-a-second-factor-for-password-logins.md):
 * whether a login needs one, and the short-lived, single-use challenge it answers with instead of a
 * session; then the challenge taken back by CompleteLogin.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared } from '@platform/service-kit/db/prepared.ts';
import { challengeOf } from '@platform/contracts/core/second-factor-challenge.ts';
import type { SecondFactorChallenge } from '@platform/kit/gen/platform/core/v1/second_factor_challenge.ts';
import type { Identity } from '../auth/identity.ts';
import { enrolmentOf, newSecret } from './totp.ts';

/** How long a challenge may be answered: time to open an authenticator app and type a code. */
export const CHALLENGE_TTL_SECONDS = 300;

interface FactorNeed {
  enrolled: boolean;
  required: boolean;
}

/**
 * Whether the user has a confirmed secret, and whether one of the tenants it may work in requires
 * one (docs/adr/0128-a-tenant-requires-the-second-factor.md): one prepared statement, one round
 * trip beside the login's own.
 */
const FACTOR_NEED = {
  name: 'core-login-second-factor',
  text: `select exists(select 1 from core.second_factor f where f.user_code = $1 and f.confirmed_at is not null) as enrolled,
                exists(select 1 from core.account a where a.cr_process_id = any($2::bigint[]) and a.second_factor_required and a.status) as required`,
};

/** The tenants a user works in: its user-process's and those it holds. */
export function tenantsOf(identity: Identity): number[] {
  return [...new Set([identity.process.crProcessId, ...identity.selects.map((s) => s.crProcessId)])];
}

/**
 * The challenge a login answers with when the user has a second factor, or must enrol one (a new
 * secret, kept with the challenge until a code from it confirms it); undefined when the login
 * opens its session at once, as it always did.
 */
export async function secondFactorChallengeFor(em: EntityManager, identity: Identity, languageCode: string): Promise<SecondFactorChallenge | undefined> {
  const [need] = await queryPrepared<FactorNeed>(em, FACTOR_NEED, [identity.user.userCode, tenantsOf(identity)]);
  if (!need || (!need.enrolled && !need.required)) return undefined;
  const userCode = identity.user.userCode;
  const enrolSecret = need.enrolled ? null : newSecret();
  const challenge = challengeOf(userCode, randomBytes(32).toString('base64url'));
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000);
  // the expired challenges of this user go as a new one comes: the table holds a few rows per user at most
  await em.execute('delete from core.second_factor_challenge where user_code = ? and expires_at < now()', [userCode]);
  await em.execute('insert into core.second_factor_challenge (challenge_hash, user_code, language_code, enrol_secret, expires_at) values (?, ?, ?, ?, ?)', [
    challengeHash(challenge),
    userCode,
    languageCode,
    enrolSecret,
    expiresAt,
  ]);
  return {
    challenge,
    expiresAt: expiresAt.toISOString(),
    enrol: enrolSecret !== null,
    enrolment: enrolSecret === null ? undefined : await enrolmentOf(userCode, enrolSecret),
  };
}

/** A challenge still open, as CompleteLogin reads it (FOR UPDATE, in its transaction). */
export interface OpenChallenge {
  userCode: string;
  languageCode: string;
  enrolSecret: string | null;
}

/** The open challenge (not used, not expired), locked for the transaction of `em`; undefined otherwise. */
export async function lockOpenChallenge(em: EntityManager, challenge: string): Promise<OpenChallenge | undefined> {
  const [row] = await em.execute<{ user_code: string; language_code: string; enrol_secret: string | null }[]>(
    `select user_code, language_code, enrol_secret from core.second_factor_challenge
      where challenge_hash = ? and used_at is null and expires_at > now() for update`,
    [challengeHash(challenge)],
  );
  return row ? { userCode: row.user_code, languageCode: row.language_code, enrolSecret: row.enrol_secret } : undefined;
}

/** Marks the challenge used: it completes one login at most. */
export async function closeChallenge(em: EntityManager, challenge: string): Promise<void> {
  await em.execute('update core.second_factor_challenge set used_at = now() where challenge_hash = ?', [challengeHash(challenge)]);
}

function challengeHash(challenge: string): string {
  return createHash('sha256').update(challenge).digest('hex');
}

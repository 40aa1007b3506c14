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
import { identityFromRows, type LoginRow } from '../auth/login-identity.ts';
import { enrolmentOf, newSecret } from './totp.ts';

/** How long a challenge may be answered: time to open an authenticator app and type a code. */
export const CHALLENGE_TTL_SECONDS = 300;

interface FactorNeed {
  enrolled: boolean;
  required: boolean;
}

/**
 * In one prepared statement (one round trip, as before the second factor existed): whether the user
 * has a confirmed secret, whether one of the tenants it may work in requires one
 * (docs/adr/0128-a-tenant-requires-the-second-factor.md), and, when either, the challenge stored
 * (with the new secret of an enrolment) and the user's expired ones deleted.
 */
const CHALLENGE_IF_NEEDED = {
  name: 'core-login-second-factor',
  text: `with need as (
           select exists(select 1 from core.second_factor f where f.user_code = $1::text and f.confirmed_at is not null) as enrolled,
                  exists(select 1 from core.account a where a.cr_process_id = any($2::bigint[]) and a.second_factor_required and a.status) as required),
         gone as (
           delete from core.second_factor_challenge where user_code = $1::text and expires_at < now() and (select enrolled or required from need)),
         made as (
           insert into core.second_factor_challenge (challenge_hash, user_code, language_code, enrol_secret, expires_at)
           select $3::text, $1::text, $4::text, case when need.enrolled then null else $5::text end, $6::timestamptz from need where need.enrolled or need.required)
         select enrolled, required from need`,
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
  const userCode = identity.user.userCode;
  const challenge = challengeOf(userCode, randomBytes(32).toString('base64url'));
  const secret = newSecret();
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000);
  const [need] = await queryPrepared<FactorNeed>(em, CHALLENGE_IF_NEEDED, [
    userCode,
    tenantsOf(identity),
    challengeHash(challenge),
    languageCode,
    secret,
    expiresAt,
  ]);
  if (!need || (!need.enrolled && !need.required)) return undefined;
  return {
    challenge,
    expiresAt: expiresAt.toISOString(),
    enrol: !need.enrolled,
    enrolment: need.enrolled ? undefined : await enrolmentOf(userCode, secret),
  };
}

/** An open challenge with its user as a login reads it (identityFromRows) and the user's confirmed secret. */
export interface ChallengeAndFactor {
  userCode: string;
  languageCode: string;
  enrolSecret: string | null;
  /** The user's confirmed secret and the step of its last accepted code (null: none, or not confirmed). */
  secret: string | null;
  lastStep: number | null;
  /** The user, its active user-process and tenants now (login-identity.ts). */
  found: ReturnType<typeof identityFromRows>;
}

/** The challenge, the user's secret and what login-identity.ts reads of the user, in one statement. */
const OPEN_CHALLENGE = {
  name: 'core-second-factor-challenge',
  text: `select c.language_code, c.enrol_secret, f.secret, f.last_step,
                u.user_code, u.user_description, u.password, u.status, u.super_user, u.token_version,
                p.id as process_id, p.user_description as process_description, p.cr_process_id as process_cr_process_id,
                a.account_no, a.account_name, a.cr_process_id as account_cr_process_id
           from core.second_factor_challenge c
           join core.user_info u on u.user_code = c.user_code
           left join core.second_factor f on f.user_code = c.user_code and f.confirmed_at is not null
           left join core.user_process p on p.user_code = u.user_code and p.status
           left join core.user_tenant a on a.user_code = p.user_code
          where c.challenge_hash = $1 and c.used_at is null and c.expires_at > now()
          order by a.account_no`,
};

type ChallengeRow = LoginRow & { language_code: string; enrol_secret: string | null; secret: string | null; last_step: string | null };

/** The open challenge (not used, not expired), its user and the user's secret, in one read; undefined when none. */
export async function openChallenge(em: EntityManager, challenge: string): Promise<ChallengeAndFactor | undefined> {
  const rows = await queryPrepared<ChallengeRow>(em, OPEN_CHALLENGE, [challengeHash(challenge)]);
  const [row] = rows;
  if (!row) return undefined;
  return {
    userCode: row.user_code,
    languageCode: row.language_code,
    enrolSecret: row.enrol_secret,
    secret: row.secret,
    lastStep: row.last_step === null ? null : Number(row.last_step),
    found: identityFromRows(rows),
  };
}

/**
 * The step of an accepted code recorded and the challenge closed, in one statement (its own
 * transaction): the step only when later than the last accepted (a replay, even at once, passes
 * once), the challenge only when still open and the step was recorded. True when both happened.
 */
const ACCEPT_CODE = {
  name: 'core-second-factor-accept',
  text: `with accepted as (
           update core.second_factor set last_step = $3::bigint
            where user_code = $2::text and confirmed_at is not null and (last_step is null or last_step < $3::bigint) returning 1),
         closed as (
           update core.second_factor_challenge set used_at = now()
            where challenge_hash = $1::text and used_at is null and expires_at > now() and exists (select 1 from accepted) returning 1)
         select count(*)::int as closed from closed`,
};

/** Records `step` as the user's last accepted and closes the challenge; false when either was refused. */
export async function acceptCodeAndClose(em: EntityManager, challenge: string, userCode: string, step: number): Promise<boolean> {
  const [row] = await queryPrepared<{ closed: number }>(em, ACCEPT_CODE, [challengeHash(challenge), userCode, step]);
  return row?.closed === 1;
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

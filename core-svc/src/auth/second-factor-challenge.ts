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
import type { Identity } from './identity.ts';
import { identityFromRows, type LoginRow } from './login-identity.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { enrolmentOf, newSecret, stepOf } from './totp.ts';

/** How long a challenge may be answered: time to open an authenticator app and type a code. */
export const CHALLENGE_TTL_SECONDS = 300;

interface FactorNeed {
  enrolled: boolean;
  required: boolean;
  secret: string | null;
  last_step: string | null;
}

/**
 * In one prepared statement (one round trip, as before the second factor existed): whether the user
 * has a confirmed secret (and which, with the step of its last accepted code), whether one of the
 * tenants it may work in requires one (docs/adr/0128-a-tenant-requires-the-second-factor.md), and,
 * when the login must wait for a code, the challenge stored (with the new secret of an enrolment)
 * and the user's expired ones deleted. $7: the login brought a code along.
 */
const CHALLENGE_IF_NEEDED = {
  name: 'core-login-second-factor',
  text: `with need as (
           select f.secret is not null as enrolled, f.secret, f.last_step,
                  exists(select 1 from core.account a where a.cr_process_id = any($2::bigint[]) and a.second_factor_required and a.status) as required
             from (select 1) one
             left join core.second_factor f on f.user_code = $1::text and f.confirmed_at is not null),
         waits as (
           select enrolled from need where (enrolled and not $7::boolean) or (not enrolled and required)),
         gone as (
           delete from core.second_factor_challenge where user_code = $1::text and expires_at < now() and exists (select 1 from waits)),
         made as (
           insert into core.second_factor_challenge (challenge_hash, user_code, language_code, enrol_secret, expires_at)
           select $3::text, $1::text, $4::text, case when waits.enrolled then null else $5::text end, $6::timestamptz from waits)
         select enrolled, required, secret, last_step from need`,
};

/** The step of a code that came with the login recorded, when later than the last accepted. */
const ACCEPT_LOGIN_CODE = {
  name: 'core-login-second-factor-code',
  text: `update core.second_factor set last_step = $2::bigint
          where user_code = $1::text and confirmed_at is not null and (last_step is null or last_step < $2::bigint) returning 1`,
};

/** The tenants a user works in: its user-process's and those it holds. */
export function tenantsOf(identity: Identity): number[] {
  return [...new Set([identity.process.crProcessId, ...identity.selects.map((s) => s.crProcessId)])];
}

/**
 * The password step's second factor: undefined when the login opens its session now (the user has
 * none and need not, or `code` is a right one of its secret); the challenge it answers with
 * instead when the user has one and brought no code, or must enrol one (a new secret, kept with
 * the challenge until a code from it confirms it). A wrong or used `code` is refused as a wrong
 * password is (401 SVC-SYS-1002).
 */
export async function secondFactorChallengeFor(
  em: EntityManager,
  identity: Identity,
  languageCode: string,
  code: string | undefined,
): Promise<SecondFactorChallenge | undefined> {
  const userCode = identity.user.userCode;
  const challenge = challengeOf(userCode, randomBytes(32).toString('base64url'));
  const secret = newSecret();
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000);
  const withCode = code !== undefined && code !== '';
  const [need] = await queryPrepared<FactorNeed>(em, CHALLENGE_IF_NEEDED, [
    userCode,
    tenantsOf(identity),
    challengeHash(challenge),
    languageCode,
    secret,
    expiresAt,
    withCode,
  ]);
  if (!need || (!need.enrolled && !need.required)) return undefined;
  if (need.enrolled && withCode) {
    const step = need.secret === null ? undefined : await stepOf(need.secret, code, need.last_step === null ? null : Number(need.last_step));
    const accepted = step === undefined ? [] : await queryPrepared(em, ACCEPT_LOGIN_CODE, [userCode, step]);
    if (accepted.length === 0) throw new DomainError('SVC-SYS-1002', 'secondFactor.failed');
    return undefined;
  }
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

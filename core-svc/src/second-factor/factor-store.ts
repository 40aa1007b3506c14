/** A user's TOTP secret in core.second_factor: read, accepted codes recorded, confirmed, removed. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { stepOf } from '../auth/totp.ts';

/** A user's secret: pending until confirmed; lastStep, the step of the last code accepted. */
export interface Factor {
  secret: string;
  confirmed: boolean;
  lastStep: number | null;
}

/** The user's secret, confirmed or pending; undefined when it has none. */
export async function factorOf(em: EntityManager, userCode: string): Promise<Factor | undefined> {
  const [row] = await em.execute<{ secret: string; confirmed_at: string | null; last_step: string | null }[]>(
    'select secret, confirmed_at, last_step from core.second_factor where user_code = ?',
    [userCode],
  );
  return row ? { secret: row.secret, confirmed: row.confirmed_at !== null, lastStep: row.last_step === null ? null : Number(row.last_step) } : undefined;
}

/**
 * Accepts `code` for the user's confirmed secret once: its step must be later than the last one
 * accepted, and the update that records it is conditional on that, so the same code sent twice at
 * once passes once (a replay within its window is refused).
 */
export async function acceptCode(em: EntityManager, userCode: string, code: string): Promise<boolean> {
  const factor = await factorOf(em, userCode);
  if (!factor?.confirmed) return false;
  const step = await stepOf(factor.secret, code, factor.lastStep);
  if (step === undefined) return false;
  const accepted = await em.execute<{ id: string }[]>(
    `update core.second_factor set last_step = ?, wrong_codes = 0 where user_code = ? and confirmed_at is not null and (last_step is null or last_step < ?) returning id`,
    [step, userCode, step],
  );
  return accepted.length > 0;
}

/**
 * Stores `secret` as the user's confirmed secret, the step of the code that confirmed it as the
 * last accepted; false when the user has a confirmed one already (confirmed elsewhere meanwhile).
 */
export async function confirmFactor(em: EntityManager, userCode: string, secret: string, step: number): Promise<boolean> {
  const stored = await em.execute<{ id: string }[]>(
    `insert into core.second_factor (user_code, secret, confirmed_at, last_step, created_at) values (?, ?, now(), ?, now())
       on conflict (user_code) do update set secret = excluded.secret, confirmed_at = now(), last_step = excluded.last_step, created_at = now()
       where core.second_factor.confirmed_at is null
     returning id`,
    [userCode, secret, step],
  );
  return stored.length > 0;
}

/** Stores `secret` as the user's pending one; false when it has a confirmed one. */
export async function storePending(em: EntityManager, userCode: string, secret: string): Promise<boolean> {
  const stored = await em.execute<{ id: string }[]>(
    `insert into core.second_factor (user_code, secret, created_at) values (?, ?, now())
       on conflict (user_code) do update set secret = excluded.secret, last_step = null, created_at = now()
       where core.second_factor.confirmed_at is null
     returning id`,
    [userCode, secret],
  );
  return stored.length > 0;
}

/** Removes the user's secret and recovery codes; true when it had a secret. */
export async function removeFactor(em: EntityManager, userCode: string): Promise<boolean> {
  await em.execute('delete from core.second_factor_recovery_code where user_code = ?', [userCode]);
  const removed = await em.execute<{ id: string }[]>('delete from core.second_factor where user_code = ? returning id', [userCode]);
  return removed.length > 0;
}

/** Wrong codes on the user's own page that lock its second factor's changes, within WRONG_CODE_MINUTES. */
export const WRONG_CODES_ALLOWED = 5;
/** How long wrong codes count, from the first of them (the login guard's window). */
export const WRONG_CODE_MINUTES = 15;

/**
 * Whether the user's second factor takes no code on its own page now: WRONG_CODES_ALLOWED wrong
 * ones within WRONG_CODE_MINUTES (the login's codes are the login guard's to count).
 */
export async function codesLocked(em: EntityManager, userCode: string): Promise<boolean> {
  const [row] = await em.execute<{ locked: boolean }[]>(
    `select wrong_codes >= ? and wrong_since > now() - make_interval(mins => ?) as locked from core.second_factor where user_code = ?`,
    [WRONG_CODES_ALLOWED, WRONG_CODE_MINUTES, userCode],
  );
  return row?.locked === true;
}

/** Counts a wrong code on the user's own page: a new window when the last one is over. */
export async function countWrongCode(em: EntityManager, userCode: string): Promise<void> {
  await em.execute(
    `update core.second_factor
        set wrong_codes = case when wrong_since > now() - make_interval(mins => ?) then wrong_codes + 1 else 1 end,
            wrong_since = case when wrong_since > now() - make_interval(mins => ?) then wrong_since else now() end
      where user_code = ?`,
    [WRONG_CODE_MINUTES, WRONG_CODE_MINUTES, userCode],
  );
}

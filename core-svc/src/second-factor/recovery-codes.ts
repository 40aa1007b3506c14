/**
 * Ten one-time recovery codes per user (docs/adr/0127-a-second-factor-for-password-logins.md):
 * 80 random bits each, shown once, kept as SHA-256 hashes. Their entropy, not a slow hash, is what
 * makes a stolen table useless, and a lookup by hash costs one index probe instead of ten bcrypt runs.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/** How many codes a user gets at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** base32 (RFC 4648) without padding; four groups of four characters. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** A recovery code as a user may type it: letters, digits, hyphens and spaces, case ignored. */
export const RECOVERY_CODE_PATTERN = /^[A-Za-z2-7 -]{16,40}$/;

/** One new code, `XXXX-XXXX-XXXX-XXXX` (16 base32 characters: 80 bits). */
function newCode(): string {
  const bytes = randomBytes(16);
  let text = '';
  for (const byte of bytes) text += ALPHABET[byte & 31];
  return text.match(/.{4}/g)?.join('-') ?? text;
}

/** The stored form of a code: hyphens, spaces and case do not count. */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toUpperCase()).digest('hex');
}

/**
 * Replaces the user's codes with ten new ones, in `em`'s transaction, and returns them (the only
 * time they are seen).
 */
export async function replaceRecoveryCodes(em: EntityManager, userCode: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await em.execute('delete from core.second_factor_recovery_code where user_code = ?', [userCode]);
  await em.execute(
    `insert into core.second_factor_recovery_code (user_code, code_hash) values ${codes.map(() => '(?, ?)').join(', ')}`,
    codes.flatMap((code) => [userCode, recoveryCodeHash(code)]),
  );
  return codes;
}

/** Uses one of the user's codes: true once per code (one statement, so two uses at once cannot both pass). */
export async function useRecoveryCode(em: EntityManager, userCode: string, code: string): Promise<boolean> {
  if (!RECOVERY_CODE_PATTERN.test(code)) return false;
  const used = await em.execute<{ id: string }[]>(
    `update core.second_factor_recovery_code set used_at = now() where user_code = ? and code_hash = ? and used_at is null returning id`,
    [userCode, recoveryCodeHash(code)],
  );
  return used.length > 0;
}

/** How many of the user's codes are left. */
export async function recoveryCodesLeft(em: EntityManager, userCode: string): Promise<number> {
  const [row] = await em.execute<{ remaining: string }[]>(
    'select count(*) as remaining from core.second_factor_recovery_code where user_code = ? and used_at is null',
    [userCode],
  );
  return Number(row?.remaining ?? 0);
}

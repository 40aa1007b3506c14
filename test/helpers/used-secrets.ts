import { appendFileSync } from 'node:fs';

/** Body fields whose values are passwords: what a test sends there must never reach a log. */
const PASSWORD_FIELDS = ['password', 'newPassword', 'currentPassword'] as const;

/**
 * Shorter values are not noted: a test's `'x'` or `'short'` would be found in any log. Every
 * password the platform accepts is at least 8 characters anyway.
 */
const MIN_LENGTH = 8;

/**
 * Notes a secret this test process used, one JSON string per line in PLATFORM_SECRETS_FILE, for the
 * log scan that closes the run (test/run.ts, test/helpers/secret-scan.ts). Without the variable (a file
 * run some other way) it does nothing.
 */
export function noteSecret(value: string): void {
  const file = process.env.PLATFORM_SECRETS_FILE;
  if (!file || value.length < MIN_LENGTH) return;
  appendFileSync(file, `${JSON.stringify(value)}\n`);
}

/** Notes the passwords of a JSON body about to be sent (login, change-password, user-info, share links). */
export function notePasswordsOf(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const record = body as Record<string, unknown>;
  for (const field of PASSWORD_FIELDS) {
    const value = record[field];
    if (typeof value === 'string') noteSecret(value);
  }
}

/** The secrets noted by every test process of the run, each once. */
export function readNotedSecrets(text: string): string[] {
  const values = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const value: unknown = JSON.parse(line);
    if (typeof value === 'string') values.add(value);
  }
  return [...values];
}

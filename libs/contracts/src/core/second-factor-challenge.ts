/**
 * The form of a second-factor challenge (docs/adr/0127-a-second-factor-for-password-logins.md):
 * `<user code, base64url>.<32 random bytes, base64url>`. core-svc keeps only its hash, and takes it
 * once; the gateway reads the user code from it to count wrong codes under the same key as wrong
 * passwords (a changed user code finds no challenge, and its attempt is counted all the same).
 */

/** A challenge for `userCode` around `random` (base64url). */
export function challengeOf(userCode: string, random: string): string {
  return `${Buffer.from(userCode, 'utf8').toString('base64url')}.${random}`;
}

/** The user code a challenge names, or undefined when it is not of the form. */
export function challengeUserCode(challenge: string): string | undefined {
  const match = /^([A-Za-z0-9_-]{1,100})\.[A-Za-z0-9_-]{43}$/.exec(challenge);
  if (!match?.[1]) return undefined;
  const userCode = Buffer.from(match[1], 'base64url').toString('utf8');
  return userCode === '' || userCode.length > 64 ? undefined : userCode;
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The recognisable start of every personal access token (docs/adr/0134-scoped-personal-access-tokens.md). */
export const ACCESS_TOKEN_PREFIX = 'svcpat_';

/** svcpat_, the public id (32 hex digits), _, the secret (32 random bytes, base64url: 43 characters). */
const FORM = /^svcpat_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

/** A personal access token's two parts. */
export interface AccessTokenParts {
  /** The public id: listed, named in the rate limiter's key and in revocation. */
  tokenId: string;
  /** The secret: shown once, kept only as its SHA-256. */
  secret: string;
}

/**
 * Whether a bearer is a personal access token at all (its prefix): such a bearer is never a JWT, and
 * the services resolve it (libs/service-kit/src/auth/access-token.ts).
 */
export function isAccessToken(token: string): boolean {
  return token.startsWith(ACCESS_TOKEN_PREFIX);
}

/**
 * The parts of a well-formed personal access token, or undefined.
 *
 * @example
 * accessTokenParts('svcpat_0123…cdef_AbC…') // { tokenId: '0123…cdef', secret: 'AbC…' }
 */
export function accessTokenParts(token: string): AccessTokenParts | undefined {
  const match = FORM.exec(token);
  return match ? { tokenId: match[1] as string, secret: match[2] as string } : undefined;
}

/** A new token: its id, its secret, the whole token to show once, and the hash to keep. */
export function newAccessToken(): AccessTokenParts & { token: string; secretHash: string } {
  const tokenId = randomBytes(16).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { tokenId, secret, token: `${ACCESS_TOKEN_PREFIX}${tokenId}_${secret}`, secretHash: secretHashOf(secret) };
}

/**
 * The SHA-256 of a secret, hex: a secret of 256 random bits needs no slow hash (nothing to guess
 * from a dictionary), so the check costs microseconds, not bcrypt's tens of milliseconds.
 */
export function secretHashOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `secret` hashes to `secretHash`, compared in constant time. */
export function secretMatches(secret: string, secretHash: string): boolean {
  const given = Buffer.from(secretHashOf(secret), 'hex');
  const kept = Buffer.from(secretHash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}

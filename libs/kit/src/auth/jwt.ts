import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { isUuid } from '../resource/uuid.ts';
import type { Language } from '../i18n/messages.ts';

/**
 * The claims of a user token: the interface's (docs/interface.md#token-and-cookie) plus accountNo, crProcessId, sid and lang
 * (docs/interface.md#identity, docs/interface.md#records).
 */
export interface UserClaims {
  sub: string;
  userProcessId: number;
  userCode: string;
  userDescription: string;
  superUser: boolean;
  tokenVersion: number;
  accountNo: string;
  crProcessId: number;
  sid: string;
  lang: Language;
}

export interface VerifiedClaims extends UserClaims {
  iat: number;
  exp: number;
}

/** Claims of the credential one platform service presents to another. */
export interface InternalClaims {
  sub: string;
  typ: 'internal';
}

const ALGORITHM = 'HS512';
const INTERNAL_TTL_SECONDS = 300;
const VERIFIED_CACHE_SIZE = 10_000;
/** How far a token's iat may lie ahead of this process's clock (clocks of replicas drift a little). */
const CLOCK_SKEW_SECONDS = 30;

/**
 * Signs and verifies HS512 tokens with the UTF-8 bytes of JWT_SECRET (docs/interface.md#token-and-cookie). The key is a
 * KeyObject made once, so jsonwebtoken does not parse the secret on every call.
 *
 * @example
 * const tokens = new TokenService(config.jwtSecret);
 * const token = tokens.sign(claims, 28_800);
 * tokens.verifyUser(token) // the claims, or undefined when forged, expired or malformed
 */
export class TokenService {
  readonly #key: KeyObject;
  #internal: { token: string; renewAt: number } | undefined;
  readonly #verified = new Map<string, VerifiedClaims>();
  /** Internal credentials whose signature verified, with their expiry (ms): each is renewed every few minutes. */
  readonly #verifiedInternal = new Map<string, number>();

  constructor(secret: string) {
    this.#key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  sign(claims: UserClaims, ttlSeconds: number): string {
    return jwt.sign(claims, this.#key, { algorithm: ALGORITHM, expiresIn: ttlSeconds });
  }

  /**
   * The user claims of a valid token; undefined for anything else (including internal tokens).
   * A token whose signature verified is remembered until it expires, so its signature is checked
   * once per process; revocation (tokenVersion, ended sessions) is checked elsewhere on every call.
   */
  verifyUser(token: string): VerifiedClaims | undefined {
    const known = this.#verified.get(token);
    if (known) {
      if (known.exp * 1000 > Date.now()) return known;
      this.#verified.delete(token);
    }
    if (this.#verifiedInternal.has(token)) return undefined; // a service's credential, not a user's
    const payload = this.#verify(token);
    if (!payload || !isUserClaims(payload) || payload.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) return undefined;
    if (this.#verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.#verified.keys().next().value;
      if (oldest !== undefined) this.#verified.delete(oldest);
    }
    this.#verified.set(token, payload);
    return payload;
  }

  /** True for a valid internal service credential. */
  verifyInternal(token: string): boolean {
    const now = Date.now();
    const expires = this.#verifiedInternal.get(token);
    if (expires !== undefined) {
      if (expires > now) return true;
      this.#verifiedInternal.delete(token);
    }
    const payload = this.#verify(token);
    const valid = payload?.typ === 'internal' && typeof payload.sub === 'string' && payload.sub.startsWith('svc:');
    if (valid && typeof payload.exp === 'number') {
      // Remembered like user tokens (the signature is checked once); the few live ones at a time
      // (one per calling service and renewal) are swept of expired entries as new ones arrive.
      for (const [known, until] of this.#verifiedInternal) if (until <= now) this.#verifiedInternal.delete(known);
      if (this.#verifiedInternal.size < VERIFIED_CACHE_SIZE) this.#verifiedInternal.set(token, payload.exp * 1000);
    }
    return valid;
  }

  /** A short-lived internal credential for `service`, renewed before it expires. */
  internalToken(service: string): string {
    const now = Date.now();
    if (!this.#internal || now >= this.#internal.renewAt) {
      const claims: InternalClaims = { sub: `svc:${service}`, typ: 'internal' };
      const token = jwt.sign(claims, this.#key, { algorithm: ALGORITHM, expiresIn: INTERNAL_TTL_SECONDS });
      this.#internal = { token, renewAt: now + (INTERNAL_TTL_SECONDS / 2) * 1000 };
    }
    return this.#internal.token;
  }

  #verify(token: string): Record<string, unknown> | undefined {
    try {
      const payload = jwt.verify(token, this.#key, { algorithms: [ALGORITHM] });
      return typeof payload === 'object' ? (payload as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * A user token's claims, all of them present and of their types: `exp` and `iat` (jsonwebtoken
 * accepts a token without exp, and checks neither's presence), `sub` equal to `userCode`, `sid` a
 * UUID (the session it must be bound to is checked live), whole numbers where numbers are due.
 * Also what the gateway asks of a token's unverified payload before handing it on (it refuses
 * with it, never grants: gateway/src/auth/token-claims.ts).
 */
export function isUserClaims(payload: Record<string, unknown>): payload is VerifiedClaims & Record<string, unknown> {
  return (
    payload.typ === undefined &&
    Number.isSafeInteger(payload.exp) &&
    Number.isSafeInteger(payload.iat) &&
    typeof payload.sub === 'string' &&
    payload.userCode === payload.sub &&
    Number.isSafeInteger(payload.userProcessId) &&
    typeof payload.userDescription === 'string' &&
    typeof payload.superUser === 'boolean' &&
    isInt4(payload.tokenVersion) &&
    typeof payload.accountNo === 'string' &&
    Number.isSafeInteger(payload.crProcessId) &&
    typeof payload.sid === 'string' &&
    isUuid(payload.sid) &&
    (payload.lang === 'en' || payload.lang === 'tr')
  );
}

/** A whole number a PostgreSQL integer column holds (tokenVersion). */
function isInt4(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= -2_147_483_648 && (value as number) <= 2_147_483_647;
}

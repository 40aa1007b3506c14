import { isUserClaims, type VerifiedClaims } from '@platform/kit/auth/jwt.ts';

/**
 * A user token's claims as the gateway reads them: decoded, never verified (the gateway holds no
 * signing key; docs/adr/0138-an-edge-without-the-signing-secret.md). Good for refusing at once what
 * cannot be a token and for what grants nothing (the answer's language); never for granting: the
 * service that serves the call verifies the signature, or core-svc's session check does before an
 * answer of the gateway's own.
 */
export type UnverifiedClaims = VerifiedClaims;

const HEADER = 'HS512';
/** How far a token's iat may lie ahead of this process's clock, as the services allow (libs/kit/src/auth/jwt.ts). */
const CLOCK_SKEW_SECONDS = 30;
const CACHE_SIZE = 10_000;
/** Three base64url parts: header, payload, signature (the signature of an HS512 token is 86 characters). */
const SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * Reads the claims of a token without its signature: three base64url parts, an HS512 header, a
 * payload with every user claim of its type (libs/kit/src/auth/jwt.ts isUserClaims) that has not
 * expired and was not issued in the future. Anything else is not a user token and is refused with
 * 401 SVC-SYS-1001 as before; what passes is handed on and verified where it is served. A token
 * read once is remembered until it expires, so a session's requests decode it once.
 *
 * @example
 * const claims = new TokenClaims();
 * claims.of(token) // the claims it states, or undefined when it cannot be a live user token
 */
export class TokenClaims {
  readonly #known = new Map<string, UnverifiedClaims>();

  of(token: string): UnverifiedClaims | undefined {
    const now = Date.now() / 1000;
    const known = this.#known.get(token);
    if (known) {
      if (known.exp > now) return known;
      this.#known.delete(token);
      return undefined;
    }
    const claims = decode(token);
    if (!claims || claims.exp <= now || claims.iat > now + CLOCK_SKEW_SECONDS) return undefined;
    if (this.#known.size >= CACHE_SIZE) {
      const oldest = this.#known.keys().next().value;
      if (oldest !== undefined) this.#known.delete(oldest);
    }
    this.#known.set(token, claims);
    return claims;
  }
}

function decode(token: string): UnverifiedClaims | undefined {
  if (token.length > 8192 || !SHAPE.test(token)) return undefined;
  const [header, payload] = token.split('.') as [string, string];
  const head = parsePart(header);
  if (head?.alg !== HEADER) return undefined;
  const claims = parsePart(payload);
  return claims && isUserClaims(claims) ? claims : undefined;
}

function parsePart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

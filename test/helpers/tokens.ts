import { createHmac } from 'node:crypto';
import { platform } from './platform.ts';

/** The JSON of one base64url part of a JWT. */
export function decode(part: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** The claims of a token. */
export function claimsOf(token: string): Record<string, unknown> {
  return decode(token.split('.')[1]);
}

/** A JWT signed by hand: any header, any payload, any secret and HMAC. */
export function sign(header: object, payload: object, secret: string, algorithm: 'sha512' | 'sha256'): string {
  const head = Buffer.from(JSON.stringify(header)).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = createHmac(algorithm, Buffer.from(secret, 'utf8')).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}

/** Claims signed HS512 with the platform's own JWT_SECRET: a token the platform would accept by signature. */
export function signWithPlatformSecret(payload: object): string {
  return sign({ alg: 'HS512', typ: 'JWT' }, payload, platform.jwtSecret, 'sha512');
}

/**
 * A key one character away from `key`: its last character changed, whatever it was (replacing it
 * with a fixed character would give the key itself back for one key in sixteen).
 */
export function otherKeyThan(key: string): string {
  return key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
}

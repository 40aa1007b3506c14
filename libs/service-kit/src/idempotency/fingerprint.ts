import { createHmac } from 'node:crypto';

/**
 * The key fingerprints are made with, set once per process (`keyFingerprints`). Keyed, because a
 * request may carry a password (user-info, a share link): a plain SHA-256 of it, kept for a day
 * beside everything else the request said, would be a fast offline check of password guesses for
 * whoever reads the table, where the record keeps only a bcrypt hash.
 */
let fingerprintKey: Buffer | undefined;

/** Keys this process's fingerprints with a key derived from `secret` (JWT_SECRET: every replica has it). */
export function keyFingerprints(secret: string): void {
  fingerprintKey = createHmac('sha256', secret).update('platform idempotency fingerprint').digest();
}

/**
 * The fingerprint of a request sent under an Idempotency-Key: HMAC-SHA-256 (hex) of its canonical
 * form, the operation and what it asks to write. Two requests that mean the same (the same fields, in any
 * order) have one fingerprint; any other difference gives another, which the key's owner is
 * refused (422) rather than answered for the first request.
 *
 * @example
 * fingerprintOf('branch.create', { crProcessId: 1, name: 'A' }) === fingerprintOf('branch.create', { name: 'A', crProcessId: 1 }) // true
 */
export function fingerprintOf(operation: string, request: unknown): string {
  if (!fingerprintKey) throw new Error('idempotency fingerprints are not keyed: runService keys them at start');
  return createHmac('sha256', fingerprintKey).update(canonicalJson({ operation, request })).digest('hex');
}

/**
 * JSON with every object's keys sorted and absent (undefined) members left out; a Date is its ISO
 * text, bytes their base64, a bigint its decimal text.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('base64'));
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

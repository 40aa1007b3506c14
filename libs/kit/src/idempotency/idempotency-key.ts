/**
 * The Idempotency-Key request header (docs/interface.md#idempotent-requests): read by the gateway on
 * the creates and the upload, and by dms-svc's file port, which the gateway hands the upload's on to.
 */
import { DomainError } from '../errors/domain-error.ts';

/** The header's name as Node gives it (lower case). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/**
 * The answer header (and the gRPC response metadata entry a service sends it as) that marks a
 * replay: `Idempotent-Replayed: true` when the answer is a stored one and nothing was written.
 */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** 1 to 255 printable ASCII characters: what fits the key column and any log line unescaped. */
const KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * The key a request names, or undefined without the header; 400 SVC-SYS-2001 naming the header when
 * it is empty, longer than 255 characters or not printable ASCII (a header sent twice reaches here
 * as Node joins it, `a, b`: one key).
 *
 * @example
 * idempotencyKeyOf(req.headers['idempotency-key']) // 'order-7' | undefined
 */
export function idempotencyKeyOf(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !KEY.test(value)) throw new DomainError('SVC-SYS-2001', 'header.invalid', { header: 'Idempotency-Key' });
  return value;
}

/**
 * Claims an Idempotency-Key for a write and keeps the write's answer under it, both in the write's
 * own transaction (docs/adr/0078-idempotent-requests.md). The database decides between
 * concurrent requests with one key: the claim is an insert on the key's primary key, which
 * PostgreSQL makes a second transaction wait on until the first one ends. When it ends committed,
 * the second sees its row (and the answer it wrote) and writes nothing; when it rolled back (a 400,
 * a 409), the second's insert goes through and that request is the write.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type CallContext } from '../auth/caller.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { Row } from '../db/entity-schema.ts';
import { fingerprintOf } from './fingerprint.ts';
import { IDEMPOTENCY_ENTITY } from './idempotency-entity.ts';
import { idempotencyKeyOf } from '@platform/kit/idempotency/idempotency-key.ts';

/** How long a key is remembered, from its first request (docs/interface.md#idempotent-requests). */
export const KEY_LIFETIME = '24 hours';

/** A write sent under a key: whose key, the key, and the request's fingerprint (fingerprint.ts). */
export interface IdempotentRequest {
  owner: string;
  key: string;
  fingerprint: string;
}

/**
 * The call's write as an idempotent request, when the call came with a key: keys are the caller's
 * own (a user's by its user code, another service's by its name), and the fingerprint covers
 * `operation` and `request`. A key that is no valid key is 400 SVC-SYS-2001, as at the gateway.
 */
export function idempotentRequestOf(ctx: CallContext, operation: string, request: unknown): IdempotentRequest | undefined {
  const key = idempotencyKeyOf(ctx.idempotencyKey);
  return key === undefined ? undefined : { owner: actorOf(ctx), key, fingerprint: fingerprintOf(operation, request) };
}

/** The outcome of a claim: this request is the write, or a repeat answered with the first one's answer. */
export type Claim = { replay: false } | { replay: true; answer: unknown };

/** The key table of `em`'s service, quoted with its schema. */
export function idempotencyTableOf(em: EntityManager): string {
  const meta = em.getMetadata().getByClassName<Row>(IDEMPOTENCY_ENTITY);
  return `"${meta.schema}"."${meta.tableName}"`;
}

/**
 * Claims the key in `em`'s transaction; must be its first statement, so that a repeat waits before
 * doing any work. A key unknown, or older than KEY_LIFETIME (the old row is replaced), is claimed:
 * the caller writes and then `keepAnswer`s. A live key with the same fingerprint is a replay of its
 * stored answer; with another, 422 SVC-SYS-2001 `idempotency.keyReused` and nothing written.
 *
 * @example
 * await em.transactional(async (em) => {
 *   const claim = await claimKey(em, request);
 *   if (claim.replay) return claim.answer;
 *   const answer = await write(em);
 *   await keepAnswer(em, request, answer);
 *   return answer;
 * });
 */
export async function claimKey(em: EntityManager, request: IdempotentRequest): Promise<Claim> {
  const table = idempotencyTableOf(em);
  if ((await claimed(em, [request])) > 0) return { replay: false };
  const [first] = await em.execute<{ fingerprint: string; answer: unknown }[]>(
    `select fingerprint, answer from ${table} where owner = ? and idempotency_key = ?`,
    [request.owner, request.key],
  );
  if (!first) throw new Error('an idempotency key neither claimed nor found');
  if (first.fingerprint !== request.fingerprint) throw new DomainError('SVC-SYS-2001', 'idempotency.keyReused');
  return { replay: true, answer: first.answer };
}

/**
 * Claims the keys of a batch of writes in one statement, as claimKey claims one (and first in the
 * transaction, likewise); true when every key was claimed. False when any is live already (a
 * replay, or a key reused): the caller rolls its transaction back, unclaiming the others, and
 * writes the batch one by one, where claimKey answers each. The keys must differ from each other.
 */
export async function claimKeys(em: EntityManager, requests: readonly IdempotentRequest[]): Promise<boolean> {
  return (await claimed(em, requests)) === requests.length;
}

/** How many of the keys one insert claimed: unknown ones, or older than KEY_LIFETIME (their old row replaced). */
async function claimed(em: EntityManager, requests: readonly IdempotentRequest[]): Promise<number> {
  // on a conflict the existing row is locked whether or not the where clause lets it be replaced,
  // so it cannot change or be swept before claimKey's select reads it
  const rows = await em.execute<{ claimed: number }[]>(
    `insert into ${idempotencyTableOf(em)} as k (owner, idempotency_key, fingerprint, answer, created_at) values ${tuples(requests.length, '(?, ?, ?, null, now())')} ` +
      `on conflict (owner, idempotency_key) do update set fingerprint = excluded.fingerprint, answer = null, created_at = excluded.created_at ` +
      `where k.created_at <= excluded.created_at - interval '${KEY_LIFETIME}' returning 1 as claimed`,
    requests.flatMap((request) => [request.owner, request.key, request.fingerprint]),
  );
  return rows.length;
}

/** Keeps the answer of the write that claimed the key, in its transaction, before it commits. */
export async function keepAnswer(em: EntityManager, request: IdempotentRequest, answer: unknown): Promise<void> {
  await keepAnswers(em, [{ request, answer }]);
}

/** Keeps the answers of a batch whose keys claimKeys claimed, in one statement. */
export async function keepAnswers(em: EntityManager, kept: readonly { request: IdempotentRequest; answer: unknown }[]): Promise<void> {
  await em.execute(
    `update ${idempotencyTableOf(em)} as k set answer = v.answer::jsonb from (values ${tuples(kept.length, '(?, ?, ?)')}) as v (owner, idempotency_key, answer) ` +
      'where k.owner = v.owner and k.idempotency_key = v.idempotency_key',
    kept.flatMap(({ request, answer }) => [request.owner, request.key, JSON.stringify(answer)]),
  );
}

/** `count` copies of a VALUES tuple, comma-separated. */
function tuples(count: number, tuple: string): string {
  return Array.from({ length: count }, () => tuple).join(', ');
}

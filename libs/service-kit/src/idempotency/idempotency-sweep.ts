import type { EntityManager } from '@mikro-orm/postgresql';
import { idempotencyTableOf, KEY_LIFETIME } from './idempotency.ts';

/** Deletes the keys of `em`'s service older than KEY_LIFETIME; how many it deleted. */
export async function sweepExpiredKeys(em: EntityManager): Promise<number> {
  const deleted = await em.execute<{ n: number }[]>(
    `with gone as (delete from ${idempotencyTableOf(em)} where created_at <= now() - interval '${KEY_LIFETIME}' returning 1) select count(*)::int as n from gone`,
  );
  return deleted[0]?.n ?? 0;
}

import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import { startPeriodicJob, type PeriodicJob } from '@platform/kit/runtime/periodic-job.ts';
import { idempotencyTableOf, KEY_LIFETIME } from './idempotency.ts';

/** How often a service deletes its expired keys. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Deletes the keys of `em`'s service older than KEY_LIFETIME; how many it deleted. */
export async function sweepExpiredKeys(em: EntityManager): Promise<number> {
  const deleted = await em.execute<{ n: number }[]>(
    `with gone as (delete from ${idempotencyTableOf(em)} where created_at <= now() - interval '${KEY_LIFETIME}' returning 1) select count(*)::int as n from gone`,
  );
  return deleted[0]?.n ?? 0;
}

/**
 * Runs `sweepExpiredKeys` every hour, the first time an hour after start. Nothing waits for it: a
 * claim treats an expired row as absent (idempotency.ts), so the sweep only keeps the table from
 * growing. A failed sweep is logged and the next one comes on time; sweeps of several replicas may
 * overlap, which a delete by age is safe for.
 */
export function startIdempotencySweep(orm: MikroORM, log: Logger): PeriodicJob {
  return startPeriodicJob({
    name: 'idempotency key sweep',
    everyMs: SWEEP_INTERVAL_MS,
    log,
    run: async () => {
      const deleted = await sweepExpiredKeys(orm.em.fork());
      if (deleted > 0) log.debug({ deleted }, 'expired idempotency keys swept');
    },
  });
}

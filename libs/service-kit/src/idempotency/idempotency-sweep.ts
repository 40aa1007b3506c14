import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { defineJob, type JobDefinition } from '../jobs/job.ts';
import { idempotencyTableOf, KEY_LIFETIME } from './idempotency.ts';

/** How often a service deletes its expired keys. */
const SWEEP_INTERVAL_SECONDS = 60 * 60;

/** Deletes the keys of `em`'s service older than KEY_LIFETIME; how many it deleted. */
export async function sweepExpiredKeys(em: EntityManager): Promise<number> {
  const deleted = await em.execute<{ n: number }[]>(
    `with gone as (delete from ${idempotencyTableOf(em)} where created_at <= now() - interval '${KEY_LIFETIME}' returning 1) select count(*)::int as n from gone`,
  );
  return deleted[0]?.n ?? 0;
}

/**
 * The job that runs `sweepExpiredKeys` every hour, once across the cluster (jobs/job-queue.ts), in
 * the service's worker. Nothing waits for it: a claim treats an expired row as absent
 * (idempotency.ts), so the sweep only keeps the table from growing; a failed sweep is tried again.
 */
export function idempotencySweepJob(service: 'core' | 'bpm' | 'dms', orm: MikroORM): JobDefinition {
  return defineJob({
    name: `${service}.idempotency-sweep`,
    schedule: { everySeconds: SWEEP_INTERVAL_SECONDS },
    run: async ({ log }) => {
      const deleted = await sweepExpiredKeys(orm.em.fork());
      if (deleted > 0) log.debug({ deleted }, 'expired idempotency keys swept');
    },
  });
}

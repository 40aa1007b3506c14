import type { MikroORM } from '@mikro-orm/postgresql';
import { sweepExpiredKeys } from '../idempotency/idempotency-sweep.ts';
import { defineJob, type JobDefinition } from './job.ts';
import { scopedFork } from '../db/tenant-scope.ts';

/** How often a service deletes its expired keys. */
const SWEEP_INTERVAL_SECONDS = 60 * 60;

/**
 * The job that runs `sweepExpiredKeys` every hour, once across the cluster (job-queue.ts), in
 * the service's worker. Nothing waits for it: a claim treats an expired row as absent
 * (../idempotency/idempotency.ts), so the sweep only keeps the table from growing; a failed sweep is tried again.
 */
export function idempotencySweepJob(service: 'core' | 'bpm' | 'dms', orm: MikroORM): JobDefinition {
  return defineJob({
    name: `${service}.idempotency-sweep`,
    schedule: { everySeconds: SWEEP_INTERVAL_SECONDS },
    run: async ({ log }) => {
      const deleted = await sweepExpiredKeys(scopedFork(orm, { platform: 'job' }));
      if (deleted > 0) log.debug({ deleted }, 'expired idempotency keys swept');
    },
  });
}

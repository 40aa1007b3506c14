import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import { startPeriodicJob, type PeriodicJob } from '@platform/kit/runtime/periodic-job.ts';
import { sweepStorage } from '../files/storage-sweep.ts';
import type { FileStorage } from '../files/storage.ts';
import { runRetention } from './run-retention.ts';

/**
 * The retention job (docs/interface.md#running, docs/interface.md#retention-and-audit): every `intervalSeconds`, the first time one interval
 * after start, a retention run and then a sweep of the file storage (files/storage-sweep.ts: what
 * crashes left without a row). One at a time per process (the next is timed from the end of the
 * last); runs of several replicas may overlap, which both are safe for. A failed run or sweep is
 * logged and the next one comes on time. `stop()` cancels the timer and waits for a run in progress.
 */
export function startRetentionJob(orm: MikroORM, storage: FileStorage, log: Logger, intervalSeconds: number, sweepGraceMs: number): PeriodicJob {
  return startPeriodicJob({
    name: 'retention job',
    everyMs: intervalSeconds * 1000,
    log,
    run: async () => {
      // each logged apart: a failed retention run does not keep the storage sweep from its turn
      await runRetention(orm.em.fork(), storage, log).catch((error: unknown) => log.error({ err: error }, 'retention run failed'));
      await sweepStorage(orm.em.fork(), storage, log, sweepGraceMs).catch((error: unknown) => log.error({ err: error }, 'storage sweep failed'));
    },
  });
}

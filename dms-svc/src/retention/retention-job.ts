import type { MikroORM } from '@mikro-orm/postgresql';
import { defineJob, type JobDefinition } from '@platform/service-kit/jobs/job.ts';
import { sweepStorage } from '../files/storage-sweep.ts';
import type { FileStorage } from '../files/storage.ts';
import { runRetention } from './run-retention.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';

/**
 * The retention job (docs/interface.md#running, docs/interface.md#retention-and-audit): a retention
 * run every `intervalSeconds` (DMS_RETENTION_INTERVAL_SECONDS), once across the cluster, in
 * dms-svc's worker (libs/service-kit/src/jobs/job-queue.ts). A run that fails is tried again; runs
 * at once never act twice (run-retention.ts), so a retry after a crash is safe.
 */
export function retentionJob(orm: MikroORM, storage: FileStorage, intervalSeconds: number): JobDefinition {
  return defineJob({
    name: 'dms.retention',
    schedule: { everySeconds: intervalSeconds },
    run: ({ log }) => runRetention(scopedFork(orm, { platform: 'job' }), storage, log),
  });
}

/**
 * The sweep of the file storage (files/storage-sweep.ts: what crashes left without a row), on the
 * retention job's interval, as a job of its own: a failed retention run does not keep it from its turn.
 */
export function storageSweepJob(orm: MikroORM, storage: FileStorage, intervalSeconds: number, sweepGraceMs: number): JobDefinition {
  return defineJob({
    name: 'dms.storage-sweep',
    schedule: { everySeconds: intervalSeconds },
    run: ({ log }) => sweepStorage(scopedFork(orm, { platform: 'job' }), storage, log, sweepGraceMs),
  });
}

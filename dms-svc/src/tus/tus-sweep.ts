import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import { defineJob, type JobDefinition } from '@platform/service-kit/jobs/job.ts';
import { releaseExpired, releaseUpload } from '../files/upload-reservations.ts';
import type { TusStore } from './tus-store.ts';
import { FILE_ID } from './tus-metadata.ts';
import { scopedFork, type Scope } from '@platform/service-kit/db/tenant-scope.ts';

const JOB: Scope = { platform: 'job' };

/**
 * The sweep of expired resumable uploads (docs/adr/0094-resumable-uploads-across-replicas.md): every
 * `intervalSeconds` (DMS_TUS_SWEEP_INTERVAL_SECONDS), once across the cluster, in dms-svc's worker
 * (libs/service-kit/src/jobs/job-queue.ts); a failed sweep is tried again. It only removes, and a
 * name already gone is skipped, so a retry after a crash is safe.
 */
export function tusSweepJob(store: TusStore, orm: MikroORM, intervalSeconds: number): JobDefinition {
  return defineJob({ name: 'dms.tus-sweep', schedule: { everySeconds: intervalSeconds }, run: ({ log }) => sweepExpired(store, orm, log) });
}

/**
 * Removes the uploads created more than DMS_TUS_EXPIRY_SECONDS ago, unfinished ones (bytes and
 * state) and the records of finished ones alike, with their reservations; how many it removed. Safe
 * beside another sweep (a name already gone is skipped).
 */
async function sweepExpired(store: TusStore, orm: MikroORM, log: Logger, now = Date.now()): Promise<number> {
  // first, any reservation past its expiry, whose upload is swept below or was gone already
  await releaseExpired(scopedFork(orm, JOB));
  // and the locks whose holders died (tus/lease-locker.ts): a lapsed lock is free already, its row only litters
  await scopedFork(orm, JOB).execute('delete from dms.dms_tus_lock where expires_at <= now()');
  let removed = 0;
  for await (const id of store.ids()) {
    const info = await store.info(id);
    const created = Date.parse(String(info?.creation_date ?? ''));
    if (!Number.isFinite(created) || created + store.getExpiration() > now) continue;
    await store.discard(id);
    await releaseUpload(scopedFork(orm, JOB), id);
    log.info({ upload: id, completed: Boolean(info?.metadata?.[FILE_ID]) }, 'expired resumable upload removed');
    removed++;
  }
  return removed;
}

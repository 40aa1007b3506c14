import { workerMain } from '@platform/service-kit/jobs/worker-main.ts';
import { loadDmsConfig } from './config.ts';
import { entities, migrationsDir } from './db.ts';
import { FileStorage } from './files/storage.ts';
import { retentionJob, storageSweepJob } from './retention/retention-job.ts';
import { tusSweepJob } from './tus/tus-sweep.ts';
import { tusStore } from './tus/tus-uploads.ts';

/** dms-svc's worker: retention, the storage sweep and the sweep of expired resumable uploads (and, as every worker, of expired idempotency keys). */
workerMain(
  async () => ({
    name: 'dms',
    loadConfig: loadDmsConfig,
    entities,
    migrationsDir,
    jobs: (orm, config) => {
      const storage = new FileStorage(config.dms.storageDir);
      return [
        retentionJob(orm, storage, config.dms.retentionIntervalSeconds),
        storageSweepJob(orm, storage, config.dms.retentionIntervalSeconds),
        tusSweepJob(tusStore(storage, config), orm, config.dms.tusSweepIntervalSeconds),
      ];
    },
  }),
  'dms-worker',
);

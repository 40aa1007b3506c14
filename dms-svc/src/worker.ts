import { importJob } from '@platform/service-kit/import/run-job.ts';
import { importRuntimes } from '@platform/service-kit/import/targets.ts';
import { registryByPath } from '@platform/contracts/registry-by-path.ts';
import { dmsResources } from '@platform/contracts/dms/index.ts';
import { importTargets } from './import-targets.ts';
import { workerMain } from '@platform/service-kit/jobs/worker-main.ts';
import { loadDmsConfig } from './config.ts';
import { entities, migrationsDir, schemas } from './db.ts';
import { storageOf } from './files/storage-of.ts';
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
      const storage = storageOf(config);
      return [
        retentionJob(orm, storage, config.dms.retentionIntervalSeconds),
        storageSweepJob(orm, storage, config.dms.retentionIntervalSeconds, config.dms.sweepGraceSeconds * 1000),
        tusSweepJob(tusStore(storage, config), orm, config.dms.tusSweepIntervalSeconds),
        importJob('dms', orm, importRuntimes(schemas, importTargets, dmsResources), registryByPath()),
      ];
    },
  }),
  'dms-worker',
);

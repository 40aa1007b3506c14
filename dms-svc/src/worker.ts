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
import { textExtractionJob, textSweepJob } from './text/text-jobs.ts';
import { matchingRulesAfter } from './matching/after-text.ts';
import { processJobSender } from '@platform/service-kit/jobs/process-sender.ts';

/** dms-svc's worker: retention, the storage sweep, the sweep of expired resumable uploads, imports, and the reading of files' words (then the tenant's matching rules) with its sweep (and, as every worker, the sweep of expired idempotency keys). */
workerMain(
  async () => ({
    name: 'dms',
    loadConfig: loadDmsConfig,
    entities,
    migrationsDir,
    jobs: (orm, config) => {
      const storage = storageOf(config);
      const text = config.dms.text;
      return [
        retentionJob(orm, storage, config.dms.retentionIntervalSeconds),
        storageSweepJob(orm, storage, config.dms.retentionIntervalSeconds, config.dms.sweepGraceSeconds * 1000),
        tusSweepJob(tusStore(storage, config), orm, config.dms.tusSweepIntervalSeconds),
        importJob('dms', orm, importRuntimes(schemas, importTargets, dmsResources), registryByPath()),
        ...(text.extraction
          ? [textExtractionJob(orm, storage, text, matchingRulesAfter(config.dms.matchingRegexTimeoutMs)), textSweepJob(orm, processJobSender(), text)]
          : []),
      ];
    },
  }),
  'dms-worker',
);

import { workerMain } from '@platform/service-kit/jobs/worker-main.ts';
import { loadServiceConfig } from '@platform/service-kit/config/service-config.ts';
import { importJob } from '@platform/service-kit/import/run-job.ts';
import { importRuntimes } from '@platform/service-kit/import/targets.ts';
import { entities, migrationsDir, schemas } from './db.ts';
import { importTargets } from './import-targets.ts';
import { registryByPath } from '@platform/contracts/registry-by-path.ts';

/** bpm-svc's worker: its imports, and the sweep of its expired idempotency keys. */
workerMain(
  async () => ({
    name: 'bpm',
    loadConfig: loadServiceConfig,
    entities,
    migrationsDir,
    jobs: (orm) => [importJob('bpm', orm, importRuntimes(schemas, importTargets), registryByPath())],
  }),
  'bpm-worker',
);

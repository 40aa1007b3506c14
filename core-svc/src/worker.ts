import { importJob } from '@platform/service-kit/import/run-job.ts';
import { importRuntimes } from '@platform/service-kit/import/targets.ts';
import { registryByPath } from '@platform/contracts/registry-by-path.ts';
import { coreResources } from '@platform/contracts/core/index.ts';
import { importTargets } from './import-targets.ts';
import { workerMain } from '@platform/service-kit/jobs/worker-main.ts';
import { loadCoreConfig } from './config.ts';
import { entities, migrationsDir, schemas } from './db.ts';

/** core-svc's worker: its imports, and the sweep of its expired idempotency keys. */
workerMain(
  async () => ({
    name: 'core',
    loadConfig: loadCoreConfig,
    entities,
    migrationsDir,
    jobs: (orm) => [importJob('core', orm, importRuntimes(schemas, importTargets, coreResources), registryByPath())],
  }),
  'core-worker',
);

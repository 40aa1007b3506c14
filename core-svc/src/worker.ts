import { workerMain } from '@platform/service-kit/jobs/worker-main.ts';
import { loadCoreConfig } from './config.ts';
import { entities, migrationsDir } from './db.ts';

/** core-svc's worker: the sweep of its expired idempotency keys. */
workerMain(async () => ({ name: 'core', loadConfig: loadCoreConfig, entities, migrationsDir }), 'core-worker');

import { workerMain } from '@platform/service-kit/jobs/worker-main.ts';
import { loadServiceConfig } from '@platform/service-kit/config/service-config.ts';
import { entities, migrationsDir } from './db.ts';

/** bpm-svc's worker: the sweep of its expired idempotency keys. */
workerMain(async () => ({ name: 'bpm', loadConfig: loadServiceConfig, entities, migrationsDir }), 'bpm-worker');

import { setTimeout as delay } from 'node:timers/promises';
import type { EntitySchema, MikroORM } from '@mikro-orm/postgresql';
import { int } from '@platform/kit/config/env.ts';
import { localAddress } from '@platform/kit/config/listen-host.ts';
import { createLogger, type Logger } from '@platform/kit/log/logger.ts';
import { createMetricsRegistry } from '@platform/kit/metrics/registry.ts';
import { installRuntimePatches } from '@platform/kit/runtime/patches/index.ts';
import { keepWritesPrivate } from '@platform/kit/runtime/private-files.ts';
import { Shutdown } from '@platform/kit/runtime/stop-signals.ts';
import { flushTracing } from '@platform/kit/telemetry/trace-bridge.ts';
import { databaseOwnerUrlOf, databaseUrlOf, servingRoleOf } from '../config/database-url.ts';
import { databasePoolingOf } from '../config/database-pooling.ts';
import { databasePoolsOf } from '../config/database-pools.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import type { Row } from '../db/entity-schema.ts';
import { executeOn, servingStatus } from '../db/migration-runner.ts';
import { checkServingRole } from '../db/serving-role.ts';
import { createOrm } from '../db/orm.ts';
import { loadUniqueKeys } from '../db/unique-keys.ts';
import { keyFingerprints } from '../idempotency/fingerprint.ts';
import { JobMetrics } from '../metrics/job.metrics.ts';
import { watchPlatformScopes } from '../metrics/scope.metrics.ts';
import { rowSecurityOf } from '../config/row-security.ts';
import { serveMetrics } from '../metrics/metrics-server.ts';
import { idempotencySweepJob } from './idempotency-sweep-job.ts';
import type { JobDefinition } from './job.ts';
import { startJobQueue } from './job-queue.ts';

export interface WorkerSpec<C extends ServiceConfig = ServiceConfig> {
  /** The service whose schema the worker works on: core, bpm or dms. */
  name: 'core' | 'bpm' | 'dms';
  entities: EntitySchema<Row>[];
  migrationsDir: string;
  loadConfig(): C;
  /** The service's own jobs; the sweep of its expired idempotency keys is added to them. */
  jobs?(orm: MikroORM, config: C, log: Logger): JobDefinition[];
}

/** How often a worker looks again while its schema has migrations pending (the service or the migrate Job applies them). */
const MIGRATED_POLL_MS = 1_000;

/**
 * A service's worker process (`<service>/src/worker.ts`): the service's background work on the job
 * queue (job-queue.ts), on the service's schema and database, never its gRPC calls, as the serving
 * role (DATABASE_URL). It waits until the schema has no migration pending and is granted to that role
 * (it applies none: the service does at start in development, the migrate Job in production), checks
 * the role as a service does (db/serving-role.ts), starts the queue (whose schema it brings up to
 * date as the owner, DATABASE_OWNER_URL, outside production), serves `GET /health` and `/metrics` (the process figures, and each job's runs: metrics/job.metrics.ts) on
 * `<SERVICE>_WORKER_METRICS_PORT` (CORE_, BPM_, DMS_; 0, the default: any free port), reports ready to a parent launcher over IPC,
 * and on SIGTERM or SIGINT lets the runs under way finish before it exits.
 */
export async function runWorker<C extends ServiceConfig>(spec: WorkerSpec<C>): Promise<void> {
  installRuntimePatches();
  keepWritesPrivate();
  const config = spec.loadConfig();
  // a job's writes under an idempotency key (an import's rows) fingerprint them as a request's are
  keyFingerprints(config.jwtSecret);
  const name = `${spec.name}-worker`;
  const log = createLogger(name, config.logLevel);
  const url = databaseUrlOf();
  // a misspelt DATABASE_POOLING refuses the start
  databasePoolingOf();
  // and a misspelt (or a production) DATABASE_ROW_SECURITY=off
  rowSecurityOf();
  // the jobs' own connections (DATABASE_POOL_MAX, 2 by default); the queue holds its own (JOBS_DATABASE_POOL_MAX)
  const pools = databasePoolsOf(process.env, 'worker');
  const orm = await createOrm({ url, schema: spec.name, entities: spec.entities, migrationsDir: spec.migrationsDir, log, poolSize: pools.orm });
  // a schema not yet migrated, or not yet granted to the serving role, is waited for as one with migrations pending
  for (let said = false; ; await delay(MIGRATED_POLL_MS)) {
    const { readable, pending } = await servingStatus(orm);
    if (readable && pending.length === 0) break;
    if (!said) log.info({ pending: readable ? pending : 'the schema is not migrated or not granted yet' }, 'waiting for the schema to be migrated');
    said = true;
  }
  await checkServingRole(executeOn(orm), spec.name, config.appEnv, log);
  // a duplicate met by a job (an import's row) is named by its field, as a request's is
  await loadUniqueKeys(orm);
  const jobs = [idempotencySweepJob(spec.name, orm), ...(spec.jobs?.(orm, config, log) ?? [])];
  const registry = createMetricsRegistry();
  watchPlatformScopes(registry);
  // the queue's schema is the migrate Job's in production; elsewhere the worker brings it up to date as the owner
  const owner = config.appEnv === 'production' ? false : { url: databaseOwnerUrlOf(), servingRole: servingRoleOf() };
  // how soon an idle worker takes a job sent on demand (an import's): pg-boss polls each queue, at least every 0.5 s
  const pollingIntervalSeconds = int(process.env, 'JOB_POLL_INTERVAL_MS', 2_000, 500, 60_000) / 1000;
  const queue = await startJobQueue({
    url,
    owner,
    jobs,
    log,
    applicationName: name,
    metrics: new JobMetrics(registry),
    poolMax: pools.jobs,
    pollingIntervalSeconds,
  });
  const shutdown = new Shutdown(log);
  const metrics = await serveMetrics(registry, int(process.env, `${spec.name.toUpperCase()}_WORKER_METRICS_PORT`, 0, 0, 65_535), {
    host: config.internalListenHost,
    serving: () => !shutdown.stopping,
  });
  const address = localAddress(config.internalListenHost, metrics.port);
  log.info({ jobs: jobs.map((job) => job.name), metricsPort: metrics.port }, 'working');
  process.send?.({ type: 'ready', name, address, metricsAddress: address });

  // the runs under way finish first (the queue's stop waits for them)
  shutdown.onSignals(async () => {
    await queue.stop();
    await metrics.close();
    await orm.close();
    await flushTracing();
  });
}

/** Runs a worker's main, logging a startup failure as one line and exiting 1. */
export function workerMain<C extends ServiceConfig>(spec: () => Promise<WorkerSpec<C>>, name: string): void {
  spec()
    .then(runWorker)
    .catch((error: unknown) => {
      createLogger(name, 'info').error({ err: error }, 'failed to start');
      process.exit(1);
    });
}

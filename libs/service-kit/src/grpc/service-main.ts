import { Server } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import type { EntitySchema, MikroORM } from '@mikro-orm/postgresql';
import { coreAccessSource } from '../auth/access.ts';
import { TokenService } from '@platform/kit/auth/jwt.ts';
import { GatewayCallKey } from '@platform/kit/auth/gateway-call-key.ts';
import { portOf } from '@platform/kit/config/env.ts';
import { databaseOwnerUrlOf, databaseUrlOf, servingRoleOf } from '../config/database-url.ts';
import { databasePoolingOf } from '../config/database-pooling.ts';
import { databasePoolsOf } from '../config/database-pools.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import { hostPort, localAddress } from '@platform/kit/config/listen-host.ts';
import { executeOn, migrateUp, requireMigrated } from '../db/migration-runner.ts';
import { checkServingRole } from '../db/serving-role.ts';
import { createOrm } from '../db/orm.ts';
import { keyFingerprints } from '../idempotency/fingerprint.ts';
import type { Row } from '../db/entity-schema.ts';
import { setOutboxDisabled } from '../events/outbox.ts';
import { installRuntimePatches } from '@platform/kit/runtime/patches/index.ts';
import { keepWritesPrivate } from '@platform/kit/runtime/private-files.ts';
import { migrationTurn } from '@platform/kit/runtime/migration-gate.ts';
import { startPeriodicJob } from '@platform/kit/runtime/periodic-job.ts';
import { DRAIN_BOUND_MS } from '@platform/kit/runtime/drain.ts';
import { Shutdown } from '@platform/kit/runtime/stop-signals.ts';
import { reportEventLoopDelay } from '@platform/kit/log/event-loop.ts';
import { createLogger, type Logger } from '@platform/kit/log/logger.ts';
import { timeServerCalls } from '../metrics/grpc-server.interceptor.ts';
import { GrpcLatency } from '@platform/kit/metrics/grpc.metrics.ts';
import { serveMetrics } from '../metrics/metrics-server.ts';
import { flushTracing } from '@platform/kit/telemetry/trace-bridge.ts';
import { watchPool, type PoolFigures } from '../metrics/pool.metrics.ts';
import { watchPreparedStatements } from '../metrics/prepared.metrics.ts';
import { watchPlatformScopes } from '../metrics/scope.metrics.ts';
import { warnNotLeakproof } from '../db/leakproof.ts';
import { loadUniqueKeys } from '../db/unique-keys.ts';
import { rowSecurityOf } from '../config/row-security.ts';
import { createMetricsRegistry } from '@platform/kit/metrics/registry.ts';
import { channelCredentials, serverCredentials } from '@platform/kit/grpc/credentials.ts';
import { coreExceptionRecorder, type ExceptionRecorder } from '@platform/kit/grpc/exception-log.ts';
import { PROTO_DIR, protoFilesOf } from './proto-files.ts';
import type { Runtime } from './server.ts';

export interface ServiceSpec<C extends ServiceConfig = ServiceConfig> {
  /** core, bpm or dms. */
  name: 'core' | 'bpm' | 'dms';
  entities: EntitySchema<Row>[];
  migrationsDir: string;
  /** Reads the service's configuration from the environment: what every service reads, and its own settings. */
  loadConfig(): C;
  /** Adds the service's implementations to the server. */
  register(server: Server, runtime: Runtime, config: C): void;
  /**
   * The RPCs (gRPC paths) the gateway calls as itself, which this service serves to the gateway's own
   * credential when it holds GATEWAY_CALL_KEY (core-svc: libs/contracts/src/core/gateway-calls.ts).
   */
  gatewayCalls?: readonly string[];
  /** Where unexpected failures are recorded; by default core-svc's exception log over gRPC. */
  exceptionRecorder?(orm: MikroORM, log: Logger): ExceptionRecorder;
  /**
   * Starts a server of the service's own beside gRPC (dms-svc's HTTP server for file bytes), before
   * the service reports ready; its close() runs on stop.
   */
  serve?(runtime: Runtime, config: C): Promise<{ close(): Promise<void> }>;
  /** Runs after the migrations (in production: after finding none pending), before the server listens (bootstrap data). */
  afterMigrate?(orm: MikroORM, config: C, log: Logger): Promise<void>;
}

const DB_HEALTH_INTERVAL_MS = 5_000;

/**
 * A service process: configuration, ORM and migrations, the gRPC server with health
 * (`grpc.health.v1`, overall and a `db` entry) and reflection, readiness reported to a parent
 * launcher over IPC, and a graceful stop on SIGTERM or SIGINT.
 */
export async function runService<C extends ServiceConfig>(spec: ServiceSpec<C>): Promise<void> {
  // first, so that a runtime the patches were not written for stops the process before any work;
  // with them a call's objects, served or made, are garbage once it has answered
  installRuntimePatches();
  // before anything is written: stored files, tus parking, anything a library creates (0600 / 0700)
  keepWritesPrivate();
  const config = spec.loadConfig();
  keyFingerprints(config.jwtSecret);
  setOutboxDisabled(config.outboxDisabled);
  const log = createLogger(`${spec.name}-svc`, config.logLevel);
  reportEventLoopDelay(`${spec.name}-svc`);
  const address = config.grpc[spec.name];
  // a misspelt DATABASE_POOLING refuses the start here, not at the first prepared read
  databasePoolingOf();
  // and a misspelt (or a production) DATABASE_ROW_SECURITY=off
  rowSecurityOf();
  const pools = databasePoolsOf(process.env, 'service');
  const orm = await createOrm({
    url: databaseUrlOf(),
    schema: spec.name,
    entities: spec.entities,
    migrationsDir: spec.migrationsDir,
    log,
    poolSize: pools.orm,
  });
  await migrationTurn();
  await migrateAtStart(spec, orm, config, log);
  // after the migrations: a role that owns the tables, a superuser or BYPASSRLS is refused in production
  await checkServingRole(executeOn(orm), spec.name, config.appEnv, log);
  // a launcher starting the services together holds another's migrations until these are applied
  process.send?.({ type: 'migrated' });
  await spec.afterMigrate?.(orm, config, log);
  await warnNotLeakproof(orm, log);
  await loadUniqueKeys(orm);

  const tokens = new TokenService(config.jwtSecret);
  const remote = spec.exceptionRecorder
    ? undefined
    : coreExceptionRecorder(config.grpc.core, channelCredentials(config.grpcTls), () => tokens.internalToken(spec.name), log);
  const recordFailure = spec.exceptionRecorder?.(orm, log) ?? remote?.record ?? (() => {});
  const registry = createMetricsRegistry();
  // MikroORM's public getNativeClient() is the pg Pool behind the ORM; read at each scrape
  const pool = (await orm.driver.getConnection().getNativeClient()) as unknown as PoolFigures;
  watchPool(registry, 'orm', () => pool);
  watchPreparedStatements(registry);
  watchPlatformScopes(registry);
  const gateway =
    config.gatewayCallKey && spec.gatewayCalls ? { key: new GatewayCallKey(config.gatewayCallKey), calls: new Set(spec.gatewayCalls) } : undefined;
  const runtime: Runtime = { service: spec.name, orm, tokens, gateway, access: coreAccessSource, log, recordFailure, metrics: registry };
  // channelz (grpc-js's call statistics, read by no one here) costs closures and timestamps per
  // call that live as long as the call's HTTP/2 stream; off. The interceptor times every call for /metrics.
  const server = new Server({
    'grpc.max_receive_message_length': 4 * 1024 * 1024,
    'grpc.enable_channelz': 0,
    interceptors: [timeServerCalls(new GrpcLatency(registry, 'server'))],
  });
  spec.register(server, runtime, config);

  const health = new HealthImplementation({ '': 'SERVING', db: 'SERVING' });
  health.addToServer(server);
  const reflected = loadSync(protoFilesOf(spec.name), { includeDirs: [PROTO_DIR], keepCase: false });
  new ReflectionService(reflected).addToServer(server);

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(hostPort(config.internalListenHost, portOf(address)), serverCredentials(config.grpcTls), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  const dbWatch = startPeriodicJob({
    name: 'database health check',
    everyMs: DB_HEALTH_INTERVAL_MS,
    log,
    run: async () => health.setStatus('db', (await orm.isConnected().catch(() => false)) ? 'SERVING' : 'NOT_SERVING'),
  });
  const extra = await spec.serve?.(runtime, config);
  const shutdown = new Shutdown(log);
  // GET /health beside /metrics: the probe of a service whose gRPC port wants client certificates,
  // which the kubelet's gRPC probe cannot present; the same overall status as grpc.health.v1's ""
  const metrics = await serveMetrics(registry, config.metricsPorts[spec.name], { host: config.internalListenHost, serving: () => !shutdown.stopping });
  log.info({ port, metricsPort: metrics.port, tls: config.grpcTls !== undefined }, 'listening');
  process.send?.({
    type: 'ready',
    name: `${spec.name}-svc`,
    address: localAddress(config.internalListenHost, port),
    metricsAddress: localAddress(config.internalListenHost, metrics.port),
  });

  shutdown.onSignals(
    async () => {
      health.setStatus('', 'NOT_SERVING');
      // a check under way ends before the ORM closes
      const jobsStopped = dbWatch.stop();
      const closing = extra?.close().catch(() => undefined);
      const drained = await drainGrpcServer(server, DRAIN_BOUND_MS);
      if (!drained) log.warn({ boundMs: DRAIN_BOUND_MS }, 'calls still in flight at the drain bound were cut');
      await closing;
      await jobsStopped;
      // open through the drain, so that its /health answers 503 NOT_SERVING meanwhile
      await metrics.close();
      remote?.close();
      await orm.close();
      await flushTracing();
    },
    // the last resort, should closing the ORM or the extra server hang
    { lastResortMs: DRAIN_BOUND_MS + 5_000 },
  );
}

/**
 * Stops accepting calls and waits for those in flight (grpc-js `tryShutdown`); past `boundMs` the rest
 * are cancelled (`forceShutdown`). Resolves true when all finished in time.
 */
function drainGrpcServer(server: Server, boundMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const bound = setTimeout(() => {
      server.forceShutdown();
      resolve(false);
    }, boundMs);
    server.tryShutdown(() => {
      clearTimeout(bound);
      resolve(true);
    });
  });
}

/**
 * Development and test migrate the service's schema at start, as the owner (DATABASE_OWNER_URL, on a
 * connection of its own closed after) and grant the serving role; production only checks, as the
 * serving role, that nothing is pending and the schema is granted (the migrate Job does both) and
 * refuses to start otherwise. Either waits while another migrator holds the schema's lock.
 */
async function migrateAtStart<C extends ServiceConfig>(spec: ServiceSpec<C>, orm: MikroORM, config: C, log: Logger): Promise<void> {
  const options = {
    applicationName: `${spec.name}-svc`,
    onWait: (holders: string[]) => log.warn({ heldBy: holders }, 'waiting for the migration lock'),
  };
  if (config.appEnv === 'production') {
    await requireMigrated(orm, options);
    return;
  }
  const ownerUrl = databaseOwnerUrlOf();
  const owner =
    ownerUrl === databaseUrlOf()
      ? orm
      : await createOrm({ url: ownerUrl, schema: spec.name, entities: spec.entities, migrationsDir: spec.migrationsDir, log, poolSize: 1 });
  try {
    const applied = await migrateUp(owner, { ...options, servingRole: servingRoleOf() });
    if (applied.length > 0) log.info({ applied }, 'migrated');
  } finally {
    if (owner !== orm) await owner.close();
  }
}

/** Runs a service's main, logging a startup failure as one line and exiting 1. */
export function main<C extends ServiceConfig>(spec: () => Promise<ServiceSpec<C>>, name: string): void {
  spec()
    .then(runService)
    .catch((error: unknown) => {
      createLogger(name, 'info').error({ err: error }, 'failed to start');
      process.exit(1);
    });
}

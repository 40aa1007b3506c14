/**
 * `npm start`: the whole platform on embedded defaults (docs/interface.md#configuration).
 *
 * - data under `.data/` (or DATA_DIR): development secrets, the admin password, the embedded
 *   PostgreSQL (`.data/pg`, port EMBEDDED_PG_PORT, default 54329) and the DMS files (`.data/files`);
 * - DATABASE_URL set: that PostgreSQL instead of the embedded one (DATABASE_OWNER_URL with it, if
 *   the schemas' owner is another role); the embedded one is served as `platform_svc`, a role
 *   that owns nothing (its password in `.data/pg-serving-password`), and migrated as its superuser;
 * - the gateway on GATEWAY_PORT (8080), the services' gRPC on 127.0.0.1:50051-50053 unless
 *   CORE_GRPC_ADDR, BPM_GRPC_ADDR, DMS_GRPC_ADDR say otherwise;
 * - every internal port (the services' gRPC and metrics ports, dms-svc's file port, the gateway's
 *   management port) bound to INTERNAL_LISTEN_HOST, 127.0.0.1 unless set: reachable from this
 *   machine only, whatever the hosts of the addresses above (docs/adr/0072-internal-ports-bind-internal-listen.md);
 * - every variable the user set reaches the children unchanged, but DATABASE_URL reaches the
 *   services alone: the gateway reads no table (docs/adr/0038-where-a-token-s-session-is-checked.md).
 * A child that dies is restarted with backoff (1 s doubling to 30 s, back to 1 s once it stayed up a
 * minute) while the others keep serving.
 * Each service's worker (retention, the sweeps: docs/adr/0143-background-work-on-a-postgresql-queue.md) starts beside it.
 * Ctrl-C, SIGTERM or SIGHUP stops the gateway, the services and their workers, then PostgreSQL, and exits 0 (a second
 * Ctrl-C forces it). The children run in their own process groups, so only the launcher sees Ctrl-C.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../libs/kit/src/config/config-error.ts';
import { developmentSecrets } from '../libs/kit/src/config/config.ts';
import { databaseUrlOf } from '../libs/service-kit/src/config/database-url.ts';
import { loadServiceConfig } from '../libs/service-kit/src/config/service-config.ts';
import { loadCoreConfig } from '../core-svc/src/config.ts';
import { loadDmsConfig } from '../dms-svc/src/config.ts';
import { loadGatewayConfig } from '../gateway/src/config.ts';
import { keepWritesPrivate } from '../libs/kit/src/runtime/private-files.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from './lib/embedded-postgres.ts';
import { ensureConsoleBuilt } from './lib/console-build.ts';
import { probeServer, redact } from './lib/pg-client.ts';
import { createServingRole } from './lib/serving-role.ts';
import { markLeakproof } from './lib/leakproof.ts';
import { type Platform, startPlatform } from './lib/processes.ts';
import { ROOT_DIR } from './lib/platform-layout.ts';

type Env = Record<string, string | undefined>;

// A closed output pipe (`npm start | less`, then quitting less) must not crash the launcher midway
// through stopping its children.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

/** The role the services serve the embedded PostgreSQL as. */
const SERVING_ROLE = 'platform_svc';

const say = (line: string): void => void process.stdout.write(`[start]     ${line}\n`);
const complain = (line: string): void => void process.stderr.write(`[start]     ${line}\n`);

async function main(): Promise<number> {
  // .data/, its secrets and the file folder are the owner's alone (0700 / 0600); what PostgreSQL's
  // user must reach as root is opened explicitly (postgres-cluster-home.ts, postgres-binaries.ts)
  keepWritesPrivate();
  const given: Env = process.env;
  const env: Env = { ...given };
  const appEnv = given.APP_ENV || 'development';
  const development = appEnv === 'development';
  const dataDir = resolve(given.DATA_DIR || join(ROOT_DIR, '.data'));
  mkdirSync(dataDir, { recursive: true });
  env.APP_ENV = appEnv;
  env.DATA_DIR = dataDir;

  // What we generated (and so print); user-supplied values are never printed.
  const shown: { apiKey?: string; adminPassword?: string; secretsGenerated?: boolean; passwordGenerated?: boolean } = {};
  if (development) {
    const secrets = developmentSecrets(dataDir);
    env.JWT_SECRET = given.JWT_SECRET || secrets.jwtSecret;
    env.DMS_URL_SECRET = given.DMS_URL_SECRET || secrets.dmsUrlSecret;
    env.GATEWAY_CALL_KEY = given.GATEWAY_CALL_KEY || secrets.gatewayCallKey;
    env.CONSOLE_CSRF_SECRET = given.CONSOLE_CSRF_SECRET || secrets.consoleCsrfSecret;
    env.DMS_FILE_PORT_SECRET = given.DMS_FILE_PORT_SECRET || secrets.dmsFilePortSecret;
    if (!given.CORE_API_KEY) {
      env.CORE_API_KEY = secrets.coreApiKey;
      shown.apiKey = secrets.coreApiKey;
      shown.secretsGenerated = secrets.generated;
    }
    if (!given.ADMIN_PASSWORD) {
      const { password, generated } = adminPassword(dataDir);
      env.ADMIN_PASSWORD = password;
      shown.adminPassword = password;
      shown.passwordGenerated = generated;
    }
  }
  env.DMS_STORAGE_DIR = resolve(given.DMS_STORAGE_DIR || join(dataDir, 'files'));
  mkdirSync(env.DMS_STORAGE_DIR, { recursive: true });
  env.GATEWAY_PORT = given.GATEWAY_PORT || '8080';
  env.CORE_GRPC_ADDR = given.CORE_GRPC_ADDR || '127.0.0.1:50051';
  env.BPM_GRPC_ADDR = given.BPM_GRPC_ADDR || '127.0.0.1:50052';
  env.DMS_GRPC_ADDR = given.DMS_GRPC_ADDR || '127.0.0.1:50053';
  // Each child reads its own settings: refuse here, before anything starts, what any of them would
  // refuse (production without its secrets or DATABASE_URL, a short JWT_SECRET, a bad number).
  try {
    for (const load of [loadGatewayConfig, loadCoreConfig, loadServiceConfig, loadDmsConfig]) load(env);
    // elsewhere an embedded PostgreSQL stands in when DATABASE_URL is not given
    if (env.APP_ENV === 'production') databaseUrlOf(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    complain(`configuration: ${error.message}`);
    return 1;
  }

  // The gateway serves gateway/console/dist: built, when its sources changed, while PostgreSQL and
  // the services start; the gateway starts after it.
  const consoleBuilt = ensureConsoleBuilt(say);
  consoleBuilt.catch(() => undefined);

  // Kept as promises so that a signal during start still stops what is coming up.
  let postgres: Promise<EmbeddedPostgresServer> | undefined;
  let platform: Promise<Platform> | undefined;
  const aborter = new AbortController();
  let shuttingDown: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    shuttingDown ??= (async () => {
      aborter.abort();
      await platform?.then(
        (started) => started.stop(),
        () => undefined,
      );
      await postgres?.then(
        (started) => started.stop(),
        () => undefined,
      );
    })();
    return shuttingDown;
  };
  let signalled = false;
  let firstSignalAt = 0;
  let done: (code: number) => void = () => undefined;
  const finished = new Promise<number>((r) => (done = r));
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) {
      // `npm start` forwards the terminal's Ctrl-C, which also reaches us directly: a repeat within
      // a second is that echo, not a second Ctrl-C.
      if (Date.now() - firstSignalAt < 1000) return;
      complain(`${signal} again: forcing exit`);
      process.exit(1); // children get SIGKILL and PostgreSQL SIGINT from the exit hooks
    }
    signalled = true;
    firstSignalAt = Date.now();
    say(`${signal}: stopping… (Ctrl-C again to force)`);
    shutdown().then(
      () => done(0),
      (error: unknown) => {
        complain(`error while stopping: ${String(error)}`);
        done(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal); // terminal closed

  let ready: Platform;
  try {
    if (given.DATABASE_URL) {
      if (!(await probeServer(given.DATABASE_URL, 5000))) {
        throw new Error(`DATABASE_URL does not answer: ${redact(given.DATABASE_URL)}`);
      }
      say(`database: ${redact(given.DATABASE_URL)}`);
    } else {
      const port = Number(given.EMBEDDED_PG_PORT || 54329);
      if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`EMBEDDED_PG_PORT must be a port number, not ${given.EMBEDDED_PG_PORT}`);
      const pgDir = join(dataDir, 'pg');
      say(`starting embedded PostgreSQL (${pgDir}, port ${port})…`);
      postgres = startEmbeddedPostgres({
        dataDir: pgDir,
        port,
        onLog: (line) => {
          if (/\b(WARNING|ERROR|FATAL|PANIC):/.test(line)) process.stderr.write(`[postgres]  ${line}\n`);
        },
      });
      const server = await postgres;
      // the services serve as platform_svc, which owns nothing; the superuser owns the schemas and
      // migrates (docs/adr/0150-a-serving-role-apart-from-the-owner.md). A cluster made before the
      // role existed gets it here, and its grants as the services migrate at start.
      const serving = await createServingRole(server.url, SERVING_ROLE, keptSecret(join(dataDir, 'pg-serving-password')).value);
      env.DATABASE_OWNER_URL = server.url;
      env.DATABASE_URL = serving.urlOf(server.url);
      // the lists' filters keep their indexes under the row-level security policies (docs/adr/0151-row-level-security-the-second-wall.md)
      await markLeakproof(server.url);
      if (signalled) return finished;
    }

    say('starting the services, and the gateway once the console is built…');
    platform = startPlatform({
      env,
      log: 'console',
      signal: aborter.signal,
      gatewayAfter: consoleBuilt,
      // each service's worker beside it: retention, the sweeps (libs/service-kit/src/jobs)
      workers: true,
      // a supervisor's job: a child that dies is started again, later each time, while the others serve
      onExit: (name, code, signal) => {
        if (!signalled) complain(`${name} stopped unexpectedly (${signal ? `signal ${signal}` : `code ${code}`})`);
      },
      supervise: {
        onRestart: (name, delayMs) => complain(`restarting ${name} in ${delayMs / 1000} s`),
        onRestarted: (name, pid) => say(`${name} is back (pid ${pid})`),
      },
    });
    ready = await platform;
  } catch (error) {
    if (signalled) return finished;
    complain(error instanceof Error ? error.message : String(error));
    await shutdown().catch(() => undefined);
    return 1;
  }
  if (signalled) return finished;

  const lines = ['', `Platform ready: ${ready.url}`, `  Console:             ${ready.url}/console/`];
  if (shown.apiKey) lines.push(`  API key (X-API-Key): ${shown.apiKey}${shown.secretsGenerated ? '  (new; kept in .data/secrets.json)' : ''}`);
  if (shown.adminPassword) {
    lines.push(`  Admin user:          ${given.ADMIN_USER_CODE || 'admin'}`);
    lines.push(
      `  Admin password:      ${shown.adminPassword}  (${shown.passwordGenerated ? 'new; ' : ''}kept in ${join(dataDir, 'admin-password')}; set when the database is first bootstrapped)`,
    );
  }
  const metrics = Object.entries(ready.metrics).map(([name, address]) => `${name} http://${address}/metrics`);
  if (metrics.length > 0) lines.push(`  Metrics:             ${metrics.join(', ')}`);
  lines.push('Press Ctrl-C to stop.', '');
  process.stdout.write(`${lines.join('\n')}\n`);
  return finished;
}

/** The development admin password: `.data/admin-password` (0600), generated on first use. */
function adminPassword(dataDir: string): { password: string; generated: boolean } {
  const { value, generated } = keptSecret(join(dataDir, 'admin-password'));
  return { password: value, generated };
}

/** A generated secret kept in `file` (0600): read when it holds one of 8 characters or more, else made and written. */
function keptSecret(file: string): { value: string; generated: boolean } {
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value.length >= 8) return { value, generated: false };
  }
  const value = randomBytes(10).toString('hex'); // no shell-unfriendly characters
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { value, generated: true };
}

process.exitCode = await main().catch((error: unknown) => {
  complain(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return 1;
});
// Open handles (readline, timers) must not keep a stopped launcher alive.
process.exit();

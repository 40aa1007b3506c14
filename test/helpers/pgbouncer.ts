/**
 * PgBouncer in transaction mode in front of the test database (docs/adr/0146-through-a-transaction-pooler.md):
 * Debian's pgbouncer (1.18), installed by test/run.ts with apt-get when missing and a selected file
 * needs it (`ensurePgBouncer`), started on 127.0.0.1 on a free port in a temporary folder
 * (`startPgBouncer`) and stopped at the end. test/run.ts runs THROUGH_PGBOUNCER against a platform of
 * its own whose processes reach their database through one (the `[pgbouncer]` pass), and
 * test/pgbouncer.test.ts starts small ones of its own. The machine's own pgbouncer, if any, is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { access, constants, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { accepts } from './until.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../scripts/lib/os-probes.ts';
import { aptInstall, selectionImports } from './apt-get.ts';
import { selectedOf } from './pass-files.ts';

export const PGBOUNCER_PATH = '/usr/sbin/pgbouncer';
/** The import by which a test file says it needs pgbouncer: run.ts looks for it in the selected files. */
const NEEDS_PGBOUNCER = 'helpers/pgbouncer.ts';

/**
 * The suite's core groups, run again in the `[pgbouncer]` pass through PgBouncer in transaction
 * mode, each with what it covers there; chosen to stay near 90 s of the pass's ava time (the
 * platform's start aside): what a session feature would break, one file per group.
 */
export const THROUGH_PGBOUNCER: Readonly<Record<string, string>> = {
  'test/auth.test.ts': 'login, tokens, logout and the live session check (the named login reads of core-svc)',
  'test/crud.test.ts': 'every resource of the registry through its CRUD set: the key reads and the live access read',
  'test/list.test.ts': 'lists: paging, sorting, filters and counts',
  'test/live-privileges.test.ts': 'privileges and tenancy read live on every call (the access stamp and its transaction-local setting)',
  'test/dms-files.test.ts': "uploads and downloads (the quota's and the audit chain's transaction-scoped advisory locks)",
  'test/dms-tus.test.ts': "resumable uploads: creation, PATCH under the upload's lease lock, completion and the sweep",
  'test/dms-tus-replicas.test.ts': "an upload's lock held across two dms-svc through the pooler, and a dead holder's lease lapsing",
  'test/webhooks-delivery.test.ts': "webhook fan-out (its transaction-scoped advisory lock) and delivery by the job queue's worker (pg-boss)",
};

/** Of a run's ava arguments, those of its pass through PgBouncer (helpers/pass-files.ts). */
export function pooledPassArgs(avaArgs: readonly string[], rootDir: string): string[] {
  return selectedOf(Object.keys(THROUGH_PGBOUNCER), avaArgs, rootDir);
}

const NOT_ROOT =
  `The PgBouncer tests need ${PGBOUNCER_PATH}, and it could not be installed: this run is not root. ` +
  'Install it once as root (Debian/Ubuntu: sudo apt-get install -y --no-install-recommends pgbouncer), then run the tests again.';

async function present(): Promise<boolean> {
  return access(PGBOUNCER_PATH, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** Whether the ava arguments select a file that needs pgbouncer. */
export function selectionNeedsPgBouncer(avaArgs: readonly string[], rootDir: string): Promise<boolean> {
  return selectionImports(avaArgs, rootDir, NEEDS_PGBOUNCER);
}

/** Installs Debian's pgbouncer when /usr/sbin/pgbouncer is missing; needs root, else it throws saying what to run. */
export async function ensurePgBouncer(): Promise<void> {
  if (await present()) return;
  if (process.getuid?.() !== 0) throw new Error(NOT_ROOT);
  console.log(`# pgbouncer: ${PGBOUNCER_PATH} is missing, installing Debian's pgbouncer`);
  const installed = await aptInstall('pgbouncer');
  if (!installed || !(await present()))
    throw new Error(`apt-get could not install pgbouncer (see its output above); the PgBouncer tests need ${PGBOUNCER_PATH}`);
}

export interface PgBouncerOptions {
  /** Server connections per database and user (`default_pool_size`); default 20. */
  poolSize?: number;
  /** URLs of more users it lets in and logs in to the server as, with their passwords, beside the server URL's (a run's serving role). */
  alsoFor?: readonly string[];
}

export interface PgBouncer {
  port: number;
  /** `databaseUrl` (a database of the server PgBouncer fronts) with PgBouncer's host and port in place of the server's. */
  urlOf(databaseUrl: string): string;
  /** One statement on PgBouncer's admin console (`SHOW POOLS`), its rows (the simple protocol, which the console speaks). */
  admin<T = Record<string, string>>(statement: string): Promise<T[]>;
  /** What PgBouncer logged so far. */
  log(): string;
  /** Stops PgBouncer (SIGTERM: at once, closing its connections) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer in transaction mode on 127.0.0.1 in front of the server of `serverUrl`: every
 * database of that server by its own name, its user (and `options.users`) let in without a password
 * (loopback alone; `auth_type = trust`) and logged in to the server with the URL's password (theirs), if any. Resolves
 * once it accepts connections.
 */
export async function startPgBouncer(serverUrl: string, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username) || 'postgres';
  const password = decodeURIComponent(server.password);
  const dir = await mkdtemp(join(tmpdir(), 'platform-pgbouncer-'));
  try {
    const users = [{ name: user, password }, ...(options.alsoFor ?? []).map(credentialsOf)];
    const lines = users.map(({ name, password: secret }) => `"${name.replaceAll('"', '""')}" "${secret.replaceAll('"', '""')}"\n`);
    await writeFile(join(dir, 'users.txt'), lines.join(''), { mode: 0o600 });
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const config = join(dir, 'pgbouncer.ini');
      await writeFile(config, configOf(server, port, user, dir, options.poolSize ?? 20), { mode: 0o600 });
      const started = await spawnOn(config, port);
      if (started.child) return running(started.child, started.output, port, user, dir);
      // another process took the port between freePort and the bind: once more on another
      if (attempt >= 3 || !/Address already in use/.test(started.output())) throw new Error(`pgbouncer did not start:\n${started.output()}`);
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function credentialsOf(url: string): { name: string; password: string } {
  const parsed = new URL(url);
  return { name: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
}

function configOf(server: URL, port: number, user: string, dir: string, poolSize: number): string {
  const host = server.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  return [
    '[databases]',
    `* = host=${host} port=${server.port || 5432}`,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    `admin_users = ${user}`,
    'pool_mode = transaction',
    `default_pool_size = ${poolSize}`,
    'max_client_conn = 1000',
    // a pool that is full makes its clients wait: a test must see that wait, not a refusal
    'query_wait_timeout = 60',
    // its own start and its errors, not every login
    'log_connections = 0',
    'log_disconnections = 0',
    'logfile =',
    'pidfile =',
    // the connections and their ends, not each one's statistics
    'stats_period = 3600',
    '',
  ].join('\n');
}

/** Spawns pgbouncer on `config`; its process once it accepts on `port`, or none (it exited) and its output. */
async function spawnOn(config: string, port: number): Promise<{ child?: ChildProcess; output: () => string }> {
  // pgbouncer refuses to run as root: as root it reads its files, then becomes nobody
  const asRoot = process.getuid?.() === 0;
  const child = spawn(PGBOUNCER_PATH, [...(asRoot ? ['-u', 'nobody'] : []), config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    // the last 64 KiB: enough to read what went wrong
    output = (output + chunk.toString('utf8')).slice(-65_536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  child.on('exit', () => (exited = true));
  const deadline = Date.now() + 10_000;
  while (!exited && Date.now() < deadline) {
    if (await accepts(port)) return { child, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!exited) child.kill('SIGKILL');
  return { output: () => output || 'no output' };
}

function running(child: ChildProcess, output: () => string, port: number, user: string, dir: string): PgBouncer {
  let stopping: Promise<void> | undefined;
  return {
    port,
    urlOf(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async admin<T>(statement: string) {
      const client = new pg.Client({ host: '127.0.0.1', port, user, database: 'pgbouncer' });
      await client.connect();
      try {
        return (await client.query(statement)).rows as T[];
      } finally {
        await client.end();
      }
    },
    log: output,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        await rm(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

/**
 * The databases the test suite and the bench run on: which server (TEST_DATABASE_URL, the local
 * one, or an embedded one), and a fresh database on it per run.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startEmbeddedPostgresOnFreePort } from './embedded-postgres.ts';
import { probeServer, redact, withClient, withDatabase } from './pg-client.ts';
import { createServingRole, type ServingRole } from './serving-role.ts';
import { markLeakproof } from './leakproof.ts';

type Env = Record<string, string | undefined>;

export interface FreshDatabase {
  /** `adminUrl` with the new database's name in place of its own: the owner's connection. */
  url: string;
  name: string;
  /**
   * The database as its serving role `<name>_svc` (scripts/lib/serving-role.ts), when asked for
   * (`servingRole: true`); otherwise `url`.
   */
  servingUrl: string;
  /** Terminates the database's connections, then drops it (and its serving role). Idempotent. */
  drop(): Promise<void>;
}

/**
 * Creates an empty database `<prefix>_<time>_<random>` (`platform_test_…` by default) on the server
 * of `adminUrl` (whose user may create databases, and roles for `servingRole`). With `servingRole`,
 * a login role of its own that owns nothing, `<name>_svc`, for the platform to serve as
 * (docs/adr/0150-a-serving-role-apart-from-the-owner.md); roles are the server's, so runs side by
 * side never share one.
 *
 * @example
 * const db = await createFreshDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'platform_test', { servingRole: true });
 * // … run the platform with DATABASE_URL = db.servingUrl, DATABASE_OWNER_URL = db.url …
 * await db.drop();
 */
export async function createFreshDatabase(adminUrl: string, prefix = 'platform_test', options: { servingRole?: boolean } = {}): Promise<FreshDatabase> {
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
  let role: ServingRole | undefined;
  const drop = (): Promise<void> => {
    dropping ??= (async () => {
      await withClient(adminUrl, async (client) => {
        await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      });
      // after the database: its grants were there
      await role?.drop();
    })();
    return dropping;
  };
  const url = withDatabase(adminUrl, name);
  await markLeakproof(url);
  if (options.servingRole) {
    role = await createServingRole(adminUrl, `${name}_svc`).catch(async (error: unknown) => {
      await drop();
      throw error;
    });
  }
  return { url, name, servingUrl: role ? role.urlOf(url) : url, drop };
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
    const server = await startEmbeddedPostgresOnFreePort({ dataDir: join(dir, 'data'), fast: true });
    return {
      adminUrl: server.adminUrl,
      source: 'embedded',
      stop: async () => {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function canCreateDatabases(url: string): Promise<boolean> {
  if (!(await probeServer(url, 1000))) return false;
  try {
    return await withClient(url, async (client) => {
      const result = await client.query<{ can: boolean }>('SELECT rolsuper OR rolcreatedb AS can FROM pg_roles WHERE rolname = current_user');
      return result.rows[0]?.can === true;
    });
  } catch {
    return false;
  }
}

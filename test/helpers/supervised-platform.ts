/**
 * A platform of a test's own on a fresh database, its workers supervised as in production (a worker
 * killed is started again), logged in as admin: for the tests that kill a worker mid-run
 * (import-resume, dms-file-text-resume) without touching the suite's shared platform.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { startPlatform } from '../../scripts/lib/processes.ts';
import { createFreshDatabase, resolveTestDatabase } from '../../scripts/lib/test-database.ts';
import { throwawayEnv } from '../../scripts/lib/throwaway-env.ts';
import { sessionOf } from './factories.ts';
import { api, platform } from './platform.ts';
import { uniquePrefix } from './redis.ts';
import { suiteLog } from './suite-log.ts';

export interface SupervisedPlatform {
  baseUrl: string;
  /** The admin's token. */
  token: string;
  /** Each process's pid, the restarted one's once it is up. */
  pids: Readonly<Record<string, number>>;
  /** The owner's URL of the platform's database. */
  databaseUrl: string;
  /** How many times each process was restarted. */
  restarts: Map<string, number>;
}

/**
 * Starts it, `name` naming its database and Redis keys, `env` beside the usual test settings; the
 * test's teardown stops it and drops its database.
 */
export async function supervisedPlatform(t: ExecutionContext, name: string, env: Record<string, string> = {}): Promise<SupervisedPlatform> {
  const workDir = await mkdtemp(join(tmpdir(), `platform-${name}-`));
  t.teardown(() => rm(workDir, { recursive: true, force: true }));
  const server = await resolveTestDatabase(process.env);
  t.teardown(() => server.stop());
  const database = await createFreshDatabase(server.adminUrl, `platform_${name}`, { servingRole: true });
  t.teardown(() => database.drop());
  const { env: platformEnv, secrets } = throwawayEnv(database.servingUrl, workDir, {
    DATABASE_OWNER_URL: database.url,
    BCRYPT_ROUNDS: '4',
    REDIS_URL: platform.env.REDIS_URL,
    REDIS_KEY_PREFIX: uniquePrefix(name),
    RATE_LIMIT_JWT: '100000',
    ...env,
  });
  const restarts = new Map<string, number>();
  const own = await startPlatform({
    env: platformEnv,
    ports: 'free',
    workers: true,
    log: suiteLog(),
    readyTimeoutMs: 120_000,
    supervise: { initialBackoffMs: 200, onRestarted: (process) => void restarts.set(process, (restarts.get(process) ?? 0) + 1) },
  });
  t.teardown(() => own.stop());
  const login = await api('POST', '/api/auth/login', {
    baseUrl: own.url,
    apiKey: secrets.CORE_API_KEY,
    body: { userCode: 'admin', password: secrets.ADMIN_PASSWORD, languageCode: 'en' },
  });
  if (login.status !== 200) throw new Error(`admin login on the supervised platform: ${login.status} ${login.text}`);
  return { baseUrl: own.url, token: sessionOf(login).token, pids: own.pids, databaseUrl: database.url, restarts };
}

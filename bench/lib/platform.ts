/**
 * The platform a scenario measures, on a fresh database with the whole filter chain on; plain HTTP
 * calls for set-up and checks; child servers (the baselines).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { createFreshDatabase, resolveTestDatabase } from '../../scripts/lib/test-database.ts';
import { ROOT_DIR } from '../../scripts/lib/platform-layout.ts';
import { startPlatform, type Platform } from '../../scripts/lib/processes.ts';
import { throwawayEnv } from '../../scripts/lib/throwaway-env.ts';
import { keysUnder, redisAnswers, uniquePrefix, untilRedisUp } from '../../test/helpers/redis.ts';
import { sessionCookieOf } from '@platform/kit/auth/request-token.ts';
import { BenchError, onCleanup } from './scenario.ts';

export interface BenchPlatform {
  /** The gateway, `http://127.0.0.1:<port>`. */
  url: string;
  apiKey: string;
  adminPassword: string;
  /** The fresh database the services migrated. */
  databaseUrl: string;
  /** Where the services' output goes (LOG_LEVEL=warn). */
  logFile: string;
  platform: Platform;
  /** BENCH_CPU_PROF: where the services write CPU profiles when they stop (undefined: not profiling). */
  profileDir: string | undefined;
  /** Node options to give other processes of the scenario so they are profiled alike. */
  execArgv: string[];
  /** The Redis the rate limiter and login guard use, and this run's key prefix (REDIS_KEY_PREFIX). */
  redis: { url: string; keyPrefix: string };
  /**
   * EVALSHA + EVAL calls Redis has served so far (INFO commandstats, the whole server): the
   * limiter runs one script per request, so the difference over a run shows it was consulted.
   */
  redisScriptCalls(): Promise<number>;
  /** The log's length now, to show later only what was logged after this point. */
  logMark(): Promise<number>;
  /** Lines of the platform log written since `mark` (at most the last `lines`), `#   `-prefixed. */
  logSince(mark: number, lines?: number): Promise<string>;
}

/** Rate limits of the bench: high enough that no request is ever refused, while every request still consults the limiter. */
export const BENCH_RATE_LIMIT = '100000000';

/**
 * Starts core-svc, bpm-svc, dms-svc and the gateway on free ports against a fresh database, as
 * test/run.ts does (APP_ENV=test, generated secrets), with LOG_LEVEL=warn and the default
 * BCRYPT_ROUNDS, and the whole filter chain on: the Redis rate limiter and login guard (REDIS_URL,
 * else the local Redis on 127.0.0.1:6379, which must answer PING; keys under a prefix of this run,
 * deleted at the end; every RATE_LIMIT_* at BENCH_RATE_LIMIT per minute) and the live
 * tokenVersion/session check (always on, in the services). `extraEnv` goes to every service (e.g.
 * EVENT_LOOP_REPORT_DIR); `telemetryRegister: false` starts the processes without the telemetry
 * `--import` every deployment has (bench/tracing-cost.ts's baseline); `workers: true` starts each
 * service's worker beside it (bench/import.ts: imports run there). Stopping everything, dropping the database and deleting the run's Redis
 * keys are registered as cleanups. BENCH_CPU_PROF=<dir> runs every service with `--cpu-prof
 * --cpu-prof-dir=<dir>` (profiles are written when the services stop).
 */
export async function startBenchPlatform(
  env: NodeJS.ProcessEnv = process.env,
  options: { extraEnv?: Record<string, string>; telemetryRegister?: boolean; workers?: boolean } = {},
): Promise<BenchPlatform> {
  // Redis first: without it the limiter would run in memory and the chain would not be the real one.
  const redisUrl = env.REDIS_URL || 'redis://127.0.0.1:6379';
  if (!(await redisAnswers(redisUrl, 3000))) {
    throw new BenchError(
      `Redis at ${redisUrl} does not answer PING: the bench measures the gateway with its Redis rate limiter on. ` +
        'Start one (Debian/Ubuntu: apt-get install redis-server) or set REDIS_URL.',
    );
  }
  const keyPrefix = uniquePrefix('bench');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true });
  redis.on('error', () => undefined);
  onCleanup(async () => {
    const keys = await keysUnder(redis, keyPrefix).catch(() => []);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500)).catch(() => 0);
    redis.disconnect();
  });

  const workDir = await mkdtemp(join(tmpdir(), 'platform-bench-'));
  if (env.BENCH_KEEP_LOG) console.log(`# the platform's log stays in ${workDir}/platform.log`);
  else onCleanup(() => rm(workDir, { recursive: true, force: true }));
  const logFile = join(workDir, 'platform.log');
  const server = await resolveTestDatabase(env);
  onCleanup(() => server.stop());
  // served as a role of the database's own that owns nothing; the owner migrates (docs/adr/0150-a-serving-role-apart-from-the-owner.md)
  const database = await createFreshDatabase(server.adminUrl, 'platform_test', { servingRole: true });
  onCleanup(() => database.drop());
  console.log(`# database: ${server.source} server, fresh database ${database.name}, served as its own role`);

  const { env: childEnv, secrets } = throwawayEnv(database.servingUrl, workDir, {
    DATABASE_OWNER_URL: database.url,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: keyPrefix,
    RATE_LIMIT_PUBLIC: BENCH_RATE_LIMIT,
    RATE_LIMIT_API_KEY: BENCH_RATE_LIMIT,
    RATE_LIMIT_JWT: BENCH_RATE_LIMIT,
    // the settings of bench/heap-sample.ts, for processes started with it (BENCH_NODE_FLAGS)
    ...Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[0].startsWith('HEAP_SAMPLE_') && entry[1] !== undefined)),
    ...options.extraEnv,
  });
  const profileDir = env.BENCH_CPU_PROF ? resolve(env.BENCH_CPU_PROF) : undefined;
  if (profileDir) await mkdir(profileDir, { recursive: true });
  // BENCH_NODE_FLAGS: Node/V8 flags for the platform's processes and the baseline, e.g. --trace-gc-nvp.
  const nodeFlags = (env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const execArgv = [...nodeFlags, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
  const platform = await startPlatform({
    env: childEnv,
    ports: 'free',
    log: { file: logFile },
    execArgv,
    telemetryRegister: options.telemetryRegister,
    workers: options.workers,
  });
  onCleanup(() => platform.stop());
  if (profileDir) console.log(`# CPU profiles of the services go to ${profileDir} when they stop`);
  console.log(
    `# platform: ${platform.url} (pids ${Object.entries(platform.pids)
      .map(([n, p]) => `${n} ${p}`)
      .join(', ')})`,
  );
  await untilRedisUp(platform);
  console.log(
    `# chain: IP filter ${childEnv.IP_FILTER_ENABLED ?? `off (APP_ENV=${childEnv.APP_ENV})`}, API key, Redis rate limiter ${redisUrl} ` +
      `(REDIS_KEY_PREFIX=${keyPrefix}, RATE_LIMIT_PUBLIC/API_KEY/JWT=${BENCH_RATE_LIMIT} per minute: consulted on every request, never refusing), ` +
      `login guard (Redis, counts failures only), JWT (handed on by the gateway, which holds no signing key; verified by the service beside its live read of tokenVersion/session and roles, a database read per request), ` +
      `roles in the services; BCRYPT_ROUNDS=${childEnv.BCRYPT_ROUNDS ?? '10 (default)'}, ` +
      `UV_THREADPOOL_SIZE=${childEnv.UV_THREADPOOL_SIZE ?? `unset (core-svc sizes its pool to the ${availableParallelism()} CPUs)`}`,
  );
  const logText = (): Promise<Buffer> => readFile(logFile).catch(() => Buffer.alloc(0));
  return {
    url: platform.url,
    apiKey: secrets.CORE_API_KEY,
    adminPassword: secrets.ADMIN_PASSWORD,
    databaseUrl: database.url,
    logFile,
    platform,
    profileDir,
    execArgv,
    redis: { url: redisUrl, keyPrefix },
    redisScriptCalls: async () => {
      const info = await redis.info('commandstats');
      let calls = 0;
      for (const match of info.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)) calls += Number(match[1]);
      return calls;
    },
    logMark: async () => (await logText()).length,
    logSince: async (mark, lines = 20) =>
      (await logText())
        .subarray(mark)
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .slice(-lines)
        .map((line) => `#   ${line}`)
        .join('\n'),
  };
}

// ---------------------------------------------------------------------------------------------
// Plain HTTP calls (set-up and verification, not measurement)

/** The settings startPlatform fills with free ports: a second platform picks its own. */
const PORTS = [
  'GATEWAY_PORT',
  'CORE_GRPC_ADDR',
  'BPM_GRPC_ADDR',
  'DMS_GRPC_ADDR',
  'DMS_HTTP_ADDR',
  'CORE_METRICS_PORT',
  'BPM_METRICS_PORT',
  'DMS_METRICS_PORT',
];

/**
 * A second platform beside `bench`'s (a variant against its baseline), on the same database with the
 * same secrets and `env` changed, its ports its own, its log `<name>.log` beside the first's;
 * stopped when the scenario ends.
 *
 * @example
 * const off = await startPlatformBeside(platform, 'rls-off', { DATABASE_URL: owner, DATABASE_ROW_SECURITY: 'off' });
 */
export async function startPlatformBeside(bench: BenchPlatform, name: string, env: Record<string, string>): Promise<Platform> {
  const own = Object.fromEntries(Object.entries(bench.platform.env).filter(([key]) => !PORTS.includes(key)));
  const platform = await startPlatform({
    env: { ...own, ...env },
    ports: 'free',
    log: { file: join(bench.logFile, '..', `${name}.log`) },
    execArgv: bench.execArgv,
  });
  onCleanup(() => platform.stop());
  return platform;
}

/** The settings of a platform without the row-level security wall (docs/adr/0151-row-level-security-the-second-wall.md): its services as the tables' owner, scoping nothing. */
export function withoutTheWall(bench: BenchPlatform): Record<string, string> {
  const { DATABASE_OWNER_URL: owner, DATABASE_URL: serving } = bench.platform.env;
  if (!owner || owner === serving) throw new BenchError('the bench platform serves as the owner already: no wall to weigh');
  return { DATABASE_URL: owner, DATABASE_ROW_SECURITY: 'off' };
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON when it is JSON, else undefined. */
  json: unknown;
}

export async function http(method: string, url: string, options: { headers?: Record<string, string>; body?: unknown } = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(url, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let json: unknown;
  if (response.headers.get('content-type')?.includes('application/json')) json = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, json };
}

/** An answer with the expected status, else a BenchError naming the call and showing the body. */
export async function expectStatus(what: string, answer: Promise<HttpAnswer>, status = 200): Promise<HttpAnswer> {
  const got = await answer;
  if (got.status !== status) throw new BenchError(`${what}: HTTP ${got.status} (expected ${status}): ${got.text.slice(0, 500)}`);
  return got;
}

/** Logs in (`POST /api/auth/login` with the API key), as the admin unless told; the token from the SVC_SESSION cookie. */
export async function login(platform: BenchPlatform, userCode = 'admin', password = platform.adminPassword): Promise<string> {
  const answer = await expectStatus(
    `login ${userCode}`,
    http('POST', `${platform.url}/api/auth/login`, {
      headers: { 'x-api-key': platform.apiKey },
      body: { userCode, password, languageCode: 'en' },
    }),
  );
  const session = sessionCookieOf(answer.headers.getSetCookie());
  if (session?.token) return session.token;
  throw new BenchError(`login ${userCode}: no SVC_SESSION cookie in ${JSON.stringify(answer.headers.getSetCookie())}`);
}

// ---------------------------------------------------------------------------------------------
// Child servers (baselines)

export interface ChildServer {
  /** `http://127.0.0.1:<port>` as the child reported it. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `node <file>` with `env` and waits for its IPC `{ type: 'ready', address }` message (the
 * platform's convention). Its output lines go to this process's stderr prefixed `[name]`. Stopping
 * it is registered as a cleanup.
 */
export async function startChildServer(
  name: string,
  file: string,
  env: Record<string, string>,
  options: { execArgv?: string[]; timeoutMs?: number } = {},
): Promise<ChildServer> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const child: ChildProcess = spawn(process.execPath, [...(options.execArgv ?? []), file], {
    cwd: ROOT_DIR,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
  }
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  onCleanup(stop);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BenchError(`${name} was not ready within ${timeoutMs / 1000} s`)), timeoutMs);
    child.on('message', (message: unknown) => {
      const { type, address } = (message ?? {}) as { type?: unknown; address?: unknown };
      if (type === 'ready' && typeof address === 'string') {
        clearTimeout(timer);
        resolve(address);
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new BenchError(`${name} could not be started: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new BenchError(`${name} exited (${signal ?? `code ${code}`}) before it was ready`));
    });
  });
  if (child.pid === undefined) throw new BenchError(`${name} has no pid`);
  return { url, pid: child.pid, stop };
}

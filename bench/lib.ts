/**
 * Helpers of the benchmark scenarios (bench/*.ts): the platform on a fresh database, child servers,
 * autocannon runs that refuse to measure errors, CPU accounting per process, and plain tables.
 *
 * @example
 * await runScenario('branch-get', async () => {
 *   const platform = await startBenchPlatform();
 *   const token = await login(platform);
 *   const figures = await measure({ url: `${platform.url}/api/branch/1`, headers: { authorization: `Bearer ${token}` } }, settings);
 *   printTable(['req/s', 'p99 ms'], [[fmt(figures.requestsPerSec, 0), fmt(figures.p99, 2)]]);
 * });
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { createFreshDatabase, resolveTestDatabase } from '../scripts/lib/postgres.ts';
import { ROOT_DIR, startPlatform, throwawayEnv, type Platform } from '../scripts/lib/processes.ts';
import { keysUnder, redisAnswers, uniquePrefix } from '../test/helpers/redis.ts';

// ---------------------------------------------------------------------------------------------
// Settings

export interface BenchSettings {
  /** Seconds per measured run (BENCH_DURATION, default 10). */
  duration: number;
  /** Concurrent connections of autocannon (BENCH_CONNECTIONS, default 50). */
  connections: number;
  /** Measured rounds, each running every target once (BENCH_ROUNDS, default 3). */
  rounds: number;
  /** Seconds of the discarded warm-up run of each target (BENCH_WARMUP, default 5). */
  warmup: number;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  return {
    duration: positiveInt(env, 'BENCH_DURATION', 10),
    connections: positiveInt(env, 'BENCH_CONNECTIONS', 50),
    rounds: positiveInt(env, 'BENCH_ROUNDS', 3),
    warmup: positiveInt(env, 'BENCH_WARMUP', 5, 0),
  };
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new BenchError(`${name}=${raw}: expected a whole number >= ${min}`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Errors, cleanup, the scenario frame

/** A failure the bench reports as such (no stack trace): errors measured, a wrong answer, bad settings. */
export class BenchError extends Error {
  override name = 'BenchError';
}

const cleanups: (() => Promise<void> | void)[] = [];
const missedTargets: string[] = [];

/** Exit code of a scenario that ran to the end but missed a target (run.ts names it so). */
export const TARGET_MISSED_EXIT = 3;

/**
 * The verdict on one target, `met` or `MISSED`, for printing; a missed one makes the scenario exit
 * with TARGET_MISSED_EXIT after it has printed everything and cleaned up.
 */
export function judge(target: string, met: boolean): 'met' | 'MISSED' {
  if (!met) missedTargets.push(target);
  return met ? 'met' : 'MISSED';
}
let stopCurrentRun: (() => void) | undefined;
let interrupted = false;

/** Registers work to undo at the end of the scenario (last registered, first run), even on failure or Ctrl-C. */
export function onCleanup(work: () => Promise<void> | void): void {
  cleanups.push(work);
}

async function runCleanups(): Promise<void> {
  for (let work = cleanups.pop(); work; work = cleanups.pop()) {
    try {
      await work();
    } catch (error) {
      console.error('# cleanup failed:', error instanceof Error ? error.message : error);
    }
  }
}

/**
 * Runs a scenario: prints its title, runs `main`, then the cleanups; exits 1 on any failure (with
 * the message only, for a BenchError) and 130 on SIGINT / SIGTERM after cleaning up.
 */
export async function runScenario(title: string, main: () => Promise<void>): Promise<never> {
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n# ${signal}: stopping ${title} and cleaning up`);
    stopCurrentRun?.();
    void runCleanups().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  console.log(`\n=== ${title} ===`);
  let code = 0;
  try {
    await main();
  } catch (error) {
    if (interrupted) await new Promise(() => undefined); // the signal handler exits
    code = 1;
    console.error(`\n# ${title} FAILED: ${error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  if (interrupted) await new Promise(() => undefined);
  await runCleanups();
  if (code === 0 && missedTargets.length > 0) {
    console.log(`\n# ${title}: targets MISSED: ${missedTargets.join('; ')}`);
    code = TARGET_MISSED_EXIT;
  }
  process.exit(code);
}

// ---------------------------------------------------------------------------------------------
// The platform

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
 * EVENT_LOOP_REPORT_DIR). Stopping everything, dropping the database and deleting the run's Redis
 * keys are registered as cleanups. BENCH_CPU_PROF=<dir> runs every service with `--cpu-prof
 * --cpu-prof-dir=<dir>` (profiles are written when the services stop).
 */
export async function startBenchPlatform(
  env: NodeJS.ProcessEnv = process.env,
  options: { extraEnv?: Record<string, string> } = {},
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
  const database = await createFreshDatabase(server.adminUrl);
  onCleanup(() => database.drop());
  console.log(`# database: ${server.source} server, fresh database ${database.name}`);

  const { env: childEnv, secrets } = throwawayEnv(database.url, workDir, {
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
  const platform = await startPlatform({ env: childEnv, ports: 'free', log: { file: logFile }, execArgv });
  onCleanup(() => platform.stop());
  if (profileDir) console.log(`# CPU profiles of the services go to ${profileDir} when they stop`);
  console.log(`# platform: ${platform.url} (pids ${Object.entries(platform.pids).map(([n, p]) => `${n} ${p}`).join(', ')})`);
  await untilRedisUp(platform.url);
  console.log(
    `# chain: IP filter ${childEnv.IP_FILTER_ENABLED ?? 'off (APP_ENV=test)'}, API key, Redis rate limiter ${redisUrl} ` +
      `(REDIS_KEY_PREFIX=${keyPrefix}, RATE_LIMIT_PUBLIC/API_KEY/JWT=${BENCH_RATE_LIMIT} per minute: consulted on every request, never refusing), ` +
      `login guard (Redis, counts failures only), JWT (verified in the gateway; live tokenVersion/session and roles read by the service, a database read per request), ` +
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

/**
 * Waits until the gateway reports `redis` UP on /actuator/health: until its Redis connection is
 * ready it limits in memory (the insurance), which is not the chain to measure.
 */
async function untilRedisUp(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    // a refused or reset connection is another try within the deadline, not a failure of the run
    const answer = await http('GET', `${url}/actuator/health`).catch((error: unknown) => error as Error);
    const status = answer instanceof Error ? undefined : (answer.json as { components?: { redis?: { status?: string } } } | undefined)?.components?.redis?.status;
    if (status === 'UP') return;
    if (Date.now() > deadline) {
      throw new BenchError(`the gateway did not report redis UP within 10 s: ${answer instanceof Error ? `${answer.message} (${String(answer.cause ?? '')})` : answer.text.slice(0, 300)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

// ---------------------------------------------------------------------------------------------
// Plain HTTP calls (set-up and verification, not measurement)

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON when it is JSON, else undefined. */
  json: unknown;
}

export async function http(
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpAnswer> {
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

/** Logs in as the admin (`POST /api/auth/login` with the API key); the token from the SVC_SESSION cookie. */
export async function login(platform: BenchPlatform, userCode = 'admin'): Promise<string> {
  const answer = await expectStatus(
    `login ${userCode}`,
    http('POST', `${platform.url}/api/auth/login`, {
      headers: { 'x-api-key': platform.apiKey },
      body: { userCode, password: platform.adminPassword, languageCode: 'en' },
    }),
  );
  for (const cookie of answer.headers.getSetCookie()) {
    const match = /^SVC_SESSION=([^;]+)/.exec(cookie);
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
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

// ---------------------------------------------------------------------------------------------
// CPU accounting

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process in ms, from /proc (undefined when gone or unreadable). */
function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime field 15.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** CPU ms of every live process whose command (comm) is `command` (postgres: the server and its backends), by pid. */
function commandCpuMs(command: string): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes(`(${command})`)) continue;
      const ms = processCpuMs(Number(entry));
      if (ms !== undefined) byPid.set(Number(entry), ms);
    } catch {
      // gone meanwhile
    }
  }
  return byPid;
}

/**
 * Processes whose CPU time a run reports: label to pid, or to a command name meaning every process
 * of that command (`postgres`: the server and every backend; `redis-server`).
 */
export type CpuWatch = Record<string, number | string>;

/** CPU times of the watched processes (and of this one, as `bench client`) at one moment. */
export type CpuSnapshot = Record<string, number | Map<number, number>>;

export function cpuSnapshot(watch: CpuWatch): CpuSnapshot {
  const snapshot: CpuSnapshot = {};
  for (const [label, pid] of Object.entries(watch)) snapshot[label] = typeof pid === 'string' ? commandCpuMs(pid) : (processCpuMs(pid) ?? NaN);
  const own = process.cpuUsage();
  snapshot['bench client'] = (own.user + own.system) / 1000;
  return snapshot;
}

/**
 * CPU ms used between two snapshots, per label. For a set of processes, per pid: backends that
 * started meanwhile count whole (pools open connections on demand), backends that ended meanwhile
 * (pools close idle connections after 10 s) count nothing rather than a negative amount.
 */
export function cpuUsed(before: CpuSnapshot, after: CpuSnapshot): Record<string, number> {
  const used: Record<string, number> = {};
  for (const [label, end] of Object.entries(after)) {
    const start = before[label];
    if (typeof end === 'number') {
      used[label] = typeof start === 'number' ? end - start : NaN;
      continue;
    }
    let sum = 0;
    for (const [pid, ms] of end) sum += ms - (start instanceof Map ? (start.get(pid) ?? 0) : 0);
    used[label] = sum;
  }
  return used;
}

/**
 * Waits until every process of `pids` has used less than 5 % of a core over a quarter of a second
 * (at most `timeoutMs`): work a run left queued (requests autocannon gave up on at its end, which a
 * service still serves) must not be counted to the next run.
 */
export async function untilQuiet(pids: readonly number[], timeoutMs = 30_000): Promise<void> {
  const windowMs = 250;
  const deadline = Date.now() + timeoutMs;
  let before = pids.map((pid) => processCpuMs(pid) ?? 0);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = pids.map((pid) => processCpuMs(pid) ?? 0);
    if (now.every((ms, i) => ms - (before[i] ?? 0) < windowMs * 0.05)) return;
    if (Date.now() > deadline) throw new BenchError(`processes ${pids.join(', ')} still busy ${timeoutMs / 1000} s after the run`);
    before = now;
  }
}

// ---------------------------------------------------------------------------------------------
// Measuring

export interface Target {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** A JSON body, sent as is with `content-type: application/json` (set it in `headers`). */
  body?: string;
}

export interface Figures {
  /** autocannon's mean of its per-second request counts. */
  requestsPerSec: number;
  /** Latency percentiles in ms, computed from every 2xx response's own timing (sub-millisecond). */
  p50: number;
  p99: number;
  /** Responses completed. */
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU µs per request of each watched process (and of this process, `bench client`). */
  cpuPerRequest: Record<string, number>;
  /** Machine-wide context switches per completed request (/proc/stat `ctxt`). */
  switchesPerRequest: number;
  /** Share of the machine's CPU time the hypervisor gave to others during the run (/proc/stat steal). */
  stealShare: number;
}

interface AutocannonResult {
  requests: { mean: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): void;
  stop(): void;
}

type Autocannon = (
  options: { url: string; method?: string; headers?: Record<string, string>; body?: string; duration: number; connections: number; timeout?: number },
  callback: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;

// autocannon is CommonJS and ships no types: load it with require and describe what is used.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/**
 * One autocannon run of `duration` seconds with `connections` connections against `target`.
 * Throws a BenchError when any response was not 2xx, any request failed or timed out, or nothing
 * completed: a benchmark of errors measures nothing.
 */
export async function measure(target: Target, options: { duration: number; connections: number; cpu?: CpuWatch; label?: string }): Promise<Figures> {
  const latencies: number[] = [];
  const before = cpuSnapshot(options.cpu ?? {});
  const machineBefore = machineSnapshot();
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method ?? 'GET',
        headers: target.headers ?? {},
        body: target.body,
        duration: options.duration,
        connections: options.connections,
        timeout: 10,
      },
      (error, res) => {
        stopCurrentRun = undefined;
        if (error) reject(error);
        else resolve(res);
      },
    );
    stopCurrentRun = () => instance.stop();
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  if (interrupted) throw new BenchError('interrupted');
  const after = cpuSnapshot(options.cpu ?? {});
  const machineAfter = machineSnapshot();
  const label = options.label ?? target.url;
  const completed = result['2xx'] + result.non2xx;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result['2xx'] === 0) {
    const codes = Object.entries(result.statusCodeStats).map(([code, { count }]) => `${code}: ${count}`).join(', ');
    let sample = '';
    try {
      const answer = await http(target.method ?? 'GET', target.url, { headers: target.headers, body: target.body === undefined ? undefined : JSON.parse(target.body) });
      sample = `; one request now answers ${answer.status}: ${answer.text.slice(0, 300)}`;
    } catch (error) {
      sample = `; one request now fails: ${error instanceof Error ? error.message : error}`;
    }
    throw new BenchError(
      `${label}: not every response was 2xx, so nothing was measured: ${result['2xx']} 2xx, ${result.non2xx} non-2xx, ` +
        `${result.errors} errors, ${result.timeouts} timeouts (status codes ${codes || 'none'})${sample}`,
    );
  }
  latencies.sort((a, b) => a - b);
  const cpuPerRequest: Record<string, number> = {};
  for (const [name, ms] of Object.entries(cpuUsed(before, after))) cpuPerRequest[name] = (ms * 1000) / completed;
  return {
    requestsPerSec: result.requests.mean,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    requests: completed,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cpuPerRequest,
    switchesPerRequest: (machineAfter.switches - machineBefore.switches) / completed,
    stealShare: (machineAfter.steal - machineBefore.steal) / Math.max(1, machineAfter.total - machineBefore.total),
  };
}

/** Machine-wide counters of /proc/stat: context switches, and CPU ticks in all and stolen. */
function machineSnapshot(): { switches: number; steal: number; total: number } {
  const stat = readFileSync('/proc/stat', 'utf8');
  const cpu = /^cpu\s+(.*)$/m.exec(stat)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
  // user nice system idle iowait irq softirq steal guest guest_nice: guest time is already in user.
  const total = cpu.slice(0, 8).reduce((sum, ticks) => sum + ticks, 0);
  return { switches: Number(/^ctxt\s+(\d+)$/m.exec(stat)?.[1] ?? NaN), steal: cpu[7] ?? NaN, total };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] ?? NaN;
}

/** CLOCK_MONOTONIC in µs: the clock of the timestamps in V8 CPU profiles (startTime, samples). */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

// ---------------------------------------------------------------------------------------------
// Output

/** A number with fixed decimals and thousands separators; `-` for NaN. */
export function fmt(value: number, decimals = 0): string {
  if (!Number.isFinite(value)) return '-';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A plain text table: the first column left-aligned, the others right-aligned. */
export function printTable(columns: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = columns.map((column, i) => Math.max(column.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

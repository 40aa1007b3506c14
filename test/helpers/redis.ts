/**
 * Redis for the tests: the suite's platform limits through a real Redis (docs/interface.md#running "Real
 * parts"), and the outage tests start, kill and restart a redis-server of their own. The machine's
 * own Redis is only ever read and written under a per-run key prefix: never flushed, never stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { Redis } from 'ioredis';
import { type Platform, startPlatform } from '../../scripts/lib/processes.ts';
import { freePort } from '../../scripts/lib/os-probes.ts';
import { suiteLog } from './suite-log.ts';
import { READY_STUB } from './stand-in.ts';

const LOCAL_REDIS = 'redis://127.0.0.1:6379';
const NO_REDIS =
  'The tests need Redis: REDIS_URL is unset, nothing answers on 127.0.0.1:6379, and there is no redis-server to start. ' +
  'Install it (Debian/Ubuntu: apt-get install redis-server) or set REDIS_URL.';

/** A short client for test assertions; disconnect it when done. */
export function redisClient(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => null, connectTimeout: 2000 });
  client.on('error', () => undefined);
  return client;
}

/** True when a Redis at `url` answers PING within `timeoutMs`. */
export async function redisAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** A key prefix no other run or test uses. */
export function uniquePrefix(name: string): string {
  return `${name}-${randomBytes(4).toString('hex')}`;
}

/** All keys under `prefix` (SCAN, never KEYS). */
export async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

export interface TestRedis {
  url: string;
  /** Where it came from: REDIS_URL, the machine's Redis on 6379, or a redis-server started here. */
  source: 'REDIS_URL' | 'local' | 'started';
  /** Stops it only if it was started here. */
  stop(): Promise<void>;
}

/**
 * REDIS_URL when set (it must answer), else the local Redis on 127.0.0.1:6379, else a redis-server
 * started on a free port; with none of them it throws, saying how to install one — the suite never
 * runs without Redis.
 */
export async function resolveTestRedis(env: Record<string, string | undefined>): Promise<TestRedis> {
  if (env.REDIS_URL) {
    if (!(await redisAnswers(env.REDIS_URL, 3000))) throw new Error(`REDIS_URL is set but that Redis does not answer PING`);
    return { url: env.REDIS_URL, source: 'REDIS_URL', stop: async () => undefined };
  }
  if (await redisAnswers(LOCAL_REDIS)) return { url: LOCAL_REDIS, source: 'local', stop: async () => undefined };
  const server = await startRedisServer();
  return { url: server.url, source: 'started', stop: () => server.stop() };
}

export interface RedisServer {
  url: string;
  port: number;
  /** SIGKILL (a crash: nothing is answered or closed cleanly) and wait until it is gone. */
  kill(): Promise<void>;
  /** Send a signal (SIGSTOP makes it hang with its connections open, SIGCONT resumes it). */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM and wait; idempotent. */
  stop(): Promise<void>;
}

const started = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

/**
 * A throwaway `redis-server --port P --save "" --appendonly no` on 127.0.0.1 (a free port unless
 * `port` is given, e.g. to restart one on the port a gateway keeps dialling), with `extraArgs` after
 * these (`--replicaof 127.0.0.1 <port>`, say).
 */
export function startRedisServer(port?: number, extraArgs: readonly string[] = []): Promise<RedisServer> {
  return startRedisProcess(
    'redis-server',
    (chosen) => ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs],
    port,
  );
}

/**
 * `command` with the arguments `argsFor(port)` (a free port of 127.0.0.1 unless `port` is given),
 * resolved once it answers PING there: a redis-server, or a redis-sentinel (helpers/redis-sentinel.ts).
 */
export async function startRedisProcess(command: string, argsFor: (port: number) => string[], port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  const child = spawn(command, argsFor(chosen), {
    cwd: tmpdir(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.add(child);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  void exited.then(() => started.delete(child));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code === 'ENOENT' ? NO_REDIS : `${command}: ${error.message}`)));
    void exited.then(() => reject(new Error(`${command} exited before answering on port ${chosen}`)));
  });
  failed.catch(() => undefined);
  const url = `redis://127.0.0.1:${chosen}`;
  const deadline = Date.now() + 10_000;
  const answering = (async () => {
    while (!(await redisAnswers(url, 500))) {
      if (Date.now() > deadline) throw new Error(`${command} on port ${chosen} did not answer within 10 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await Promise.race([answering, failed]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    port: chosen,
    kill: () => stopWith('SIGKILL'),
    signal: (signal) => void child.kill(signal),
    stop: () => stopWith('SIGTERM'),
  };
}

/**
 * One more gateway process for the edge tests, with `env` over the suite's platform environment
 * (`base`, i.e. `platform.env`): it dials the suite's running services and, unless `env` says
 * otherwise, its Redis — so give it a REDIS_KEY_PREFIX of its own (or a Redis of its own). The
 * service slots are filled by stubs that only report ready.
 */
export function startGateway(base: Record<string, string>, env: Record<string, string>): Promise<Platform> {
  return startPlatform({
    env: { ...base, GATEWAY_PORT: '0', ...env },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
  });
}

/**
 * Waits until `gateway` reports `redis` UP on /actuator/health: until its connection is ready it
 * limits in memory (the insurance), which a test counting a shared limit must not catch, nor a
 * benchmark measuring the chain (bench/lib/platform.ts). A refused or reset connection is another
 * try within the 10 s. Each poll comes from another TEST-NET-1 address (for TRUST_PROXY=1), so
 * the polls never meet a limit.
 */
export async function untilRedisUp(gateway: Pick<Platform, 'url'>): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (let attempt = 0; ; attempt++) {
    let last: string;
    try {
      const res = await fetch(`${gateway.url}/actuator/health`, { headers: { 'x-forwarded-for': `192.0.2.${(attempt % 250) + 1}` } });
      last = await res.text();
      const body = JSON.parse(last) as { components?: { redis?: { status?: string } } };
      if (body.components?.redis?.status === 'UP') return;
    } catch (error) {
      last = error instanceof Error ? `${error.message} (${String(error.cause ?? '')})` : String(error);
    }
    if (Date.now() > deadline) throw new Error(`the gateway at ${gateway.url} did not report redis UP within 10 s: ${last.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

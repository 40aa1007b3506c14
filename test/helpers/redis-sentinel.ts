/**
 * A Redis Sentinel group for the failover test and the bench (docs/adr/0142-redis-behind-sentinel.md):
 * on 127.0.0.1, on free ports, in a temporary folder, a master, a replica of it and three sentinels
 * (Debian's redis-sentinel) that watch it with a quorum of 2 and fail over a second after the
 * master stops answering. test/run.ts installs redis-sentinel before ava when a selected file needs
 * it (`ensureRedisSentinel`). The machine's own Redis is never touched.
 */
import { writeFileSync } from 'node:fs';
import { access, constants, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { aptInstall, selectionImports } from './apt-get.ts';
import { type RedisServer, startRedisProcess, startRedisServer } from './redis.ts';
import { until } from './until.ts';

export const SENTINEL_PATH = '/usr/bin/redis-sentinel';
/** The import by which a test file says it needs redis-sentinel: run.ts looks for it in the selected files. */
const NEEDS_SENTINEL = 'helpers/redis-sentinel.ts';

/** The group's name (REDIS_SENTINEL_NAME). */
export const SENTINEL_GROUP = 'platform-test';
/** How long the sentinels wait on a silent master before they call it down. */
export const DOWN_AFTER_MS = 1000;
/** The sentinels' failover timeout: a failed election is tried again after twice this. */
const FAILOVER_TIMEOUT_MS = 3000;

const NOT_ROOT =
  `The Sentinel tests need ${SENTINEL_PATH}, and it could not be installed: this run is not root. ` +
  'Install it once as root (Debian/Ubuntu: sudo apt-get install -y --no-install-recommends redis-sentinel), then run the tests again.';

async function present(): Promise<boolean> {
  return access(SENTINEL_PATH, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** Whether the ava arguments select a file that needs redis-sentinel. */
export function selectionNeedsSentinel(avaArgs: readonly string[], rootDir: string): Promise<boolean> {
  return selectionImports(avaArgs, rootDir, NEEDS_SENTINEL);
}

/** Installs Debian's redis-sentinel when /usr/bin/redis-sentinel is missing; needs root, else it throws saying what to run. */
export async function ensureRedisSentinel(): Promise<void> {
  if (await present()) return;
  if (process.getuid?.() !== 0) throw new Error(NOT_ROOT);
  console.log(`# redis-sentinel: ${SENTINEL_PATH} is missing, installing Debian's redis-sentinel`);
  const installed = await aptInstall('redis-sentinel');
  if (!installed || !(await present()))
    throw new Error(`apt-get could not install redis-sentinel (see its output above); the Sentinel tests need ${SENTINEL_PATH}`);
}

export interface SentinelGroup {
  /** REDIS_SENTINELS: the three sentinels' host:port, comma-separated. */
  sentinels: string;
  /** REDIS_SENTINEL_NAME. */
  name: string;
  /** The master the group started with. */
  master: RedisServer;
  /** Its replica, the one node a failover can promote. */
  replica: RedisServer;
  /** The port of the node the sentinels name master now (the first sentinel that answers). */
  masterPort(): Promise<number>;
  /** Waits until every sentinel names the node on `port` master; throws after `timeoutMs`. */
  untilMasterIs(port: number, timeoutMs: number): Promise<void>;
  /** Stops every process of the group and removes its folder. */
  stop(): Promise<void>;
}

/** A short client to a node or a sentinel; disconnect it when done. */
function client(port: number): Redis {
  const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, retryStrategy: () => null, connectTimeout: 1000, lazyConnect: true });
  redis.on('error', () => undefined);
  return redis;
}

async function withClient<T>(port: number, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = client(port);
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/** A field of an INFO section (`master_link_status`, say). */
function infoField(info: string, field: string): string | undefined {
  return new RegExp(`^${field}:(.*)$`, 'm').exec(info)?.[1]?.trim();
}

/**
 * Starts the group and resolves once it can fail over: the replica in sync with the master, and
 * each sentinel knowing the master, its replica and the two other sentinels.
 */
export async function startSentinelGroup(): Promise<SentinelGroup> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-sentinel-'));
  const nodes: RedisServer[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // no fork for a full sync, no five-second wait before it: the replica is in sync at once
    const sync = ['--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0', '--dir', dir];
    const master = await startRedisServer(undefined, sync);
    nodes.push(master);
    const replica = await startRedisServer(undefined, [...sync, '--replicaof', '127.0.0.1', String(master.port)]);
    nodes.push(replica);
    await until('the replica did not come in sync', 10_000, () =>
      withClient(replica.port, async (redis) => infoField(await redis.info('replication'), 'master_link_status') === 'up'),
    );
    for (let i = 0; i < 3; i++) {
      const sentinel = await startRedisProcess(SENTINEL_PATH, (port) => {
        const file = join(dir, `sentinel-${port}.conf`);
        writeFileSync(file, sentinelConfig(port, master.port, dir));
        return [file];
      });
      nodes.push(sentinel);
    }
    const sentinelPorts = nodes.slice(2).map((node) => node.port);
    // a sentinel learns the replica from the master's INFO and the other sentinels from their
    // hello messages (every 2 s): until then it could not fail over
    await until('the sentinels did not learn the replica and each other', 15_000, async () => {
      const views = await Promise.all(
        sentinelPorts.map((port) => withClient(port, async (redis) => fields((await redis.call('SENTINEL', 'MASTER', SENTINEL_GROUP)) as string[]))),
      );
      return views.every((view) => Number(view['num-slaves']) >= 1 && Number(view['num-other-sentinels']) === 2);
    });
    const masterAddress = (port: number) =>
      withClient(port, async (redis) => {
        const address = (await redis.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_GROUP)) as string[] | null;
        return address ? Number(address[1]) : undefined;
      });
    return {
      sentinels: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
      name: SENTINEL_GROUP,
      master,
      replica,
      masterPort: async () => {
        for (const port of sentinelPorts) {
          const named = await masterAddress(port).catch(() => undefined);
          if (named !== undefined) return named;
        }
        throw new Error('no sentinel names a master');
      },
      untilMasterIs: (port, timeoutMs) =>
        until(`not every sentinel named port ${port} master`, timeoutMs, async () =>
          (await Promise.all(sentinelPorts.map(masterAddress))).every((named) => named === port),
        ),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A flat [field, value, …] reply as an object. */
function fields(reply: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) out[reply[i]!] = reply[i + 1]!;
  return out;
}

/** A sentinel's configuration file; it rewrites it as it learns the group, so each has its own. */
function sentinelConfig(port: number, masterPort: number, dir: string): string {
  return [
    `port ${port}`,
    'bind 127.0.0.1',
    'daemonize no',
    `dir ${dir}`,
    `sentinel monitor ${SENTINEL_GROUP} 127.0.0.1 ${masterPort} 2`,
    `sentinel down-after-milliseconds ${SENTINEL_GROUP} ${DOWN_AFTER_MS}`,
    `sentinel failover-timeout ${SENTINEL_GROUP} ${FAILOVER_TIMEOUT_MS}`,
    `sentinel parallel-syncs ${SENTINEL_GROUP} 1`,
    '',
  ].join('\n');
}

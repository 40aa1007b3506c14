import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '@platform/kit/log/logger.ts';

/** Longest wait for Redis on a request before the in-memory insurance answers instead. */
export const REDIS_COMMAND_TIMEOUT_MS = 200;

/** Longest a connection attempt (to a sentinel or to the master it names) may take before the next one. */
export const REDIS_SENTINEL_CONNECT_TIMEOUT_MS = 2000;

/** A sentinel's address (REDIS_SENTINELS is a comma list of them). */
export interface SentinelAddress {
  host: string;
  port: number;
}

/**
 * Where the gateway's Redis is: one address (REDIS_URL), or the master of a Sentinel group
 * (REDIS_SENTINELS, REDIS_SENTINEL_NAME; docs/adr/0144-redis-behind-sentinel.md), whose data nodes
 * ask REDIS_PASSWORD and whose sentinels REDIS_SENTINEL_PASSWORD when set.
 */
export type RedisTarget =
  | { kind: 'url'; url: string }
  | { kind: 'sentinel'; sentinels: SentinelAddress[]; name: string; password: string | undefined; sentinelPassword: string | undefined };

/** The master again when a write lands on a replica (READONLY): a failover the client has not seen yet. */
export function isReadOnlyError(error: Error): boolean {
  return error.message.startsWith('READONLY');
}

/**
 * ioredis's options to find the master through the sentinels: role master (a node that answers as a
 * replica is dropped and the sentinels asked again), a READONLY reply taken as a failover (reconnect,
 * to the master the sentinels name; the command itself fails and its request is answered by the
 * insurance), and the sentinels asked again at most a second apart.
 *
 * Not ioredis's failoverDetector: in ioredis 6 the detector of a dropped connection stays subscribed
 * while the client reconnects, and the sentinels' +switch-master, when it comes while the client
 * asks a sentinel for the master, cancels that reconnect and ends the client for good (status
 * `end`: the limits in memory until the process restarts). A failover is seen without it: a dead
 * master drops the connection, a demoted one answers writes with READONLY
 * (docs/adr/0144-redis-behind-sentinel.md).
 */
function sentinelOptions(target: Extract<RedisTarget, { kind: 'sentinel' }>): RedisOptions {
  return {
    sentinels: target.sentinels,
    name: target.name,
    role: 'master',
    password: target.password,
    sentinelPassword: target.sentinelPassword,
    connectTimeout: REDIS_SENTINEL_CONNECT_TIMEOUT_MS,
    sentinelCommandTimeout: REDIS_SENTINEL_CONNECT_TIMEOUT_MS,
    sentinelRetryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    reconnectOnError: (error) => isReadOnlyError(error),
  };
}

/**
 * An ioredis client for the hot path: no offline queue and a short command timeout, so that a Redis
 * that is gone or hangs costs at most REDIS_COMMAND_TIMEOUT_MS before the insurance answers; it
 * reconnects by itself (at most a second apart) and is used again once it is back. Behind Sentinel
 * it reconnects to whichever node the sentinels name master, and the failover is, for a request,
 * one more such outage: the insurance answers until the new master is ready
 * (docs/adr/0144-redis-behind-sentinel.md).
 *
 * Not auto-pipelined: ioredis gives every auto-pipeline a `length` getter of its own, which keeps the
 * pipeline and its commands past every scavenge until a mark-compact; off, the gateway promotes less
 * and pauses less at the same throughput, for a little more Redis CPU per request (measured in
 * bench/README.md, "Garbage collection").
 */
export function connectRedis(target: string | RedisTarget, log: Logger, name: string): Redis {
  const where: RedisTarget = typeof target === 'string' ? { kind: 'url', url: target } : target;
  const options: RedisOptions = {
    connectionName: name,
    enableAutoPipelining: false,
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  };
  const redis = where.kind === 'url' ? new Redis(where.url, options) : new Redis({ ...options, ...sentinelOptions(where) });
  let up: boolean | undefined;
  redis.on('ready', () => {
    if (up === false) log.info({ connection: name }, 'redis is back; rate limits are shared again');
    up = true;
  });
  redis.on('error', (error: Error) => {
    if (up !== false) log.warn({ connection: name, err: error }, 'redis unavailable; rate limits fall back to this process memory');
    up = false;
  });
  return redis;
}

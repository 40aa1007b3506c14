import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { RedisTarget } from '../config.ts';

/** Longest wait for Redis on a request before the in-memory insurance answers instead. */
export const REDIS_COMMAND_TIMEOUT_MS = 200;

/** Longest a connection attempt (to a sentinel or to the master it names) may take before the next one. */
export const REDIS_SENTINEL_CONNECT_TIMEOUT_MS = 2000;

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
 * `end`: the limits in memory until the process restarts). followFailovers below does its work
 * without that flaw (docs/adr/0142-redis-behind-sentinel.md).
 */
function sentinelOptions(target: Extract<RedisTarget, { kind: 'sentinel' }>): RedisOptions {
  return {
    sentinels: target.sentinels,
    name: target.name,
    role: 'master',
    password: target.password,
    sentinelPassword: target.sentinelPassword,
    connectTimeout: REDIS_SENTINEL_CONNECT_TIMEOUT_MS,
    // a master that hangs does not close its side: the reconnect after a switch waits this long for it
    disconnectTimeout: REDIS_SENTINEL_CONNECT_TIMEOUT_MS / 4,
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
 * (docs/adr/0142-redis-behind-sentinel.md).
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

/** The channel on which each sentinel announces a failover: `<name> <old ip> <old port> <new ip> <new port>`. */
const SWITCH_MASTER = '+switch-master';

/**
 * Follows the failovers of the Sentinel group of `target`: a subscription to every sentinel's
 * +switch-master, and on a switch of the group each of `clients` that is connected, and not to the
 * new master, reconnects (asks the sentinels again). One that is not connected is reconnecting
 * already and asks them anyway; so the switch never cancels a reconnect in progress, which
 * ioredis's failoverDetector does. Without it a master that hangs (its connections open, no answer)
 * would keep the gateway on it, limiting in memory, after the sentinels had promoted a replica.
 * Returns what stops it.
 *
 * @example
 * const stop = followFailovers(config.redis, [redis, loginRedis], log);
 */
export function followFailovers(target: Extract<RedisTarget, { kind: 'sentinel' }>, clients: readonly Redis[], log: Logger): () => void {
  const subscribers = target.sentinels.map((sentinel) => {
    const subscriber = new Redis({
      host: sentinel.host,
      port: sentinel.port,
      password: target.sentinelPassword,
      connectionName: 'gateway-sentinel-switch',
      connectTimeout: REDIS_SENTINEL_CONNECT_TIMEOUT_MS,
      maxRetriesPerRequest: null,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    });
    // a sentinel that is down is one of several; the data connection logs Redis's outages
    subscriber.on('error', () => undefined);
    subscriber.subscribe(SWITCH_MASTER).catch(() => undefined);
    subscriber.on('message', (channel: string, message: string) => {
      const [name, , , host, port] = message.split(' ');
      if (channel !== SWITCH_MASTER || name !== target.name) return;
      for (const client of clients) {
        const onNewMaster = client.stream?.remoteAddress === host && String(client.stream?.remotePort) === port;
        if (client.status !== 'ready' || onNewMaster) continue;
        log.warn({ connection: client.options.connectionName, master: `${host}:${port}` }, 'redis sentinels switched master; reconnecting to it');
        client.disconnect(true);
      }
    });
    return subscriber;
  });
  return () => {
    for (const subscriber of subscribers) subscriber.disconnect();
  };
}

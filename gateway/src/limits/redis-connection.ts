import { Redis } from 'ioredis';
import type { Logger } from '@platform/kit/log/logger.ts';

/** Longest wait for Redis on a request before the in-memory insurance answers instead. */
export const REDIS_COMMAND_TIMEOUT_MS = 200;

/**
 * An ioredis client for the hot path: no offline queue and a short command timeout, so that a Redis
 * that is gone or hangs costs at most REDIS_COMMAND_TIMEOUT_MS before the insurance answers; it
 * reconnects by itself (at most a second apart) and is used again once it is back.
 *
 * Not auto-pipelined: ioredis gives every auto-pipeline a `length` getter of its own, which keeps the
 * pipeline and its commands past every scavenge until a mark-compact; off, the gateway promotes less
 * and pauses less at the same throughput, for a little more Redis CPU per request (measured in
 * bench/README.md, "Garbage collection").
 */
export function connectRedis(url: string, log: Logger, name: string): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    enableAutoPipelining: false,
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
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

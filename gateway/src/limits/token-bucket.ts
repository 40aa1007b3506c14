import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

// Token bucket on rate-limiter-flexible: a bucket of `points` tokens, refilled continuously at
// `points` per `duration` seconds ("gradual refill", docs/interface.md#limits), in Redis (one Lua
// script, one round trip) with an in-memory bucket of the same shape as the library's insurance.
// ---------------------------------------------------------------------------------------------

/**
 * The library's RateLimiterRes with what a token bucket adds: `msBeforeNext` is the wait until the
 * next request of one point would pass (0 while tokens remain), `msUntilFull` the time until the
 * bucket is full again. `consumedPoints` is above `points` exactly when the request was refused, as
 * the library's store classes expect.
 */
export class TokenBucketRes extends RateLimiterRes {
  readonly msUntilFull: number;
  constructor(allowed: boolean, remaining: number, msUntilFull: number, msBeforeNext: number, capacity: number, taken: number) {
    super(remaining, msBeforeNext, allowed ? capacity - remaining : capacity + Math.max(taken, 1), false);
    this.msUntilFull = msUntilFull;
  }
}

/**
 * KEYS[1]: the bucket, a hash {t: tokens, at: last change in ms of the Redis clock}. ARGV as
 * RateLimiterRedis passes them: [1] tokens to take (0: only look), [2] unused, [3] capacity,
 * [4] refill window in seconds. Redis's own clock (TIME; scripts replicate their effects since
 * Redis 5) keeps every gateway on one time line. The key expires when the bucket would be full, as
 * a missing key means a full bucket. Returns {allowed, whole tokens left, ms until full, ms until
 * the next request passes} — the same arithmetic as `takeTokens` below.
 */
const TOKEN_BUCKET_LUA = `
local take = tonumber(ARGV[1])
local capacity = tonumber(ARGV[3])
local window = tonumber(ARGV[4]) * 1000
local clock = redis.call('TIME')
local now = clock[1] * 1000 + math.floor(clock[2] / 1000)
local state = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = capacity
if state[1] then
  tokens = math.min(capacity, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * capacity / window)
end
local allowed = tokens >= take
if allowed and take > 0 then
  tokens = tokens - take
  redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) * window / capacity))
end
local need = allowed and 1 or take
return {allowed and 1 or 0, math.floor(tokens), math.ceil((capacity - tokens) * window / capacity), math.ceil(math.max(0, need - tokens) * window / capacity)}
`;

interface Bucket {
  tokens: number;
  at: number;
}

/** The Lua script's arithmetic on an in-memory bucket map (`now` in ms of a monotonic clock). */
function takeTokens(buckets: Map<string, Bucket>, key: string, take: number, capacity: number, windowMs: number, now: number): TokenBucketRes {
  const bucket = buckets.get(key);
  let tokens = bucket ? Math.min(capacity, bucket.tokens + (Math.max(0, now - bucket.at) * capacity) / windowMs) : capacity;
  const allowed = tokens >= take;
  if (allowed && take > 0) {
    tokens -= take;
    buckets.set(key, { tokens, at: now });
  }
  const msFor = (missing: number) => Math.ceil((Math.max(0, missing) * windowMs) / capacity);
  return new TokenBucketRes(allowed, Math.floor(tokens), msFor(capacity - tokens), msFor((allowed ? 1 : take) - tokens), capacity, take);
}

const unsupported = (what: string) => Promise.reject(new Error(`${what} is not supported by the token bucket limiter`));

interface TokenBucketOptions {
  /** Bucket size, and tokens refilled per `duration`. */
  points: number;
  /** Seconds in which an empty bucket refills completely. */
  duration: number;
  keyPrefix: string;
}

/**
 * The token bucket in this process's memory: the limiter when REDIS_URL is unset, and the insurance
 * of TokenBucketRedis when Redis fails. Buckets that have refilled are swept once per window.
 * Only consume, get (a look that takes nothing) and delete have a meaning here.
 */
export class TokenBucketMemory extends RateLimiterMemory {
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: TokenBucketOptions) {
    super(options);
    const windowMs = options.duration * 1000;
    setInterval(() => {
      const now = performance.now();
      for (const [key, bucket] of this.#buckets) {
        if (bucket.tokens + ((now - bucket.at) * this.points) / windowMs >= this.points) this.#buckets.delete(key);
      }
    }, windowMs).unref();
  }

  override consume(key: string | number, pointsToConsume = 1): Promise<RateLimiterRes> {
    const res = takeTokens(this.#buckets, this.getKey(key), pointsToConsume, this.points, this.msDuration, performance.now());
    return res.consumedPoints > this.points ? Promise.reject(res) : Promise.resolve(res);
  }

  override get(key: string | number): Promise<RateLimiterRes> {
    return this.consume(key, 0);
  }

  override delete(key: string | number): Promise<boolean> {
    return Promise.resolve(this.#buckets.delete(this.getKey(key)));
  }

  override penalty(): Promise<RateLimiterRes> {
    return unsupported('penalty');
  }
  override reward(): Promise<RateLimiterRes> {
    return unsupported('reward');
  }
  override set(): Promise<RateLimiterRes> {
    return unsupported('set');
  }
  override block(): Promise<RateLimiterRes> {
    return unsupported('block');
  }
}

/**
 * The token bucket in Redis: RateLimiterRedis with the token-bucket script in place of its counter
 * (`customIncrTtlLuaScript`), so the library keeps doing the rest — key prefixes, the one
 * EVALSHA per consume, and the fall-back to `insuranceLimiter` whenever
 * Redis errs, times out or is not connected (`rejectIfRedisNotReady`).
 *
 * The script is registered on the ioredis client under the library's fixed command name, so a
 * client must not be shared with a RateLimiterRedis that runs the library's own script.
 */
export class TokenBucketRedis extends RateLimiterRedis {
  constructor(options: TokenBucketOptions & { storeClient: Redis; insuranceLimiter: TokenBucketMemory }) {
    super({ ...options, customIncrTtlLuaScript: TOKEN_BUCKET_LUA, rejectIfRedisNotReady: true });
  }

  /** Called by the library with the script's reply. */
  _getRateLimiterRes(_rlKey: string, changedPoints: number, reply: [number, number, number, number]): TokenBucketRes {
    const [allowed, remaining, msUntilFull, msBeforeNext] = reply;
    return new TokenBucketRes(allowed === 1, remaining, msUntilFull, msBeforeNext, this.points, changedPoints);
  }

  override get(key: string | number, options?: Record<string, unknown>): Promise<RateLimiterRes> {
    return this.consume(key, 0, options);
  }

  override penalty(): Promise<RateLimiterRes> {
    return unsupported('penalty');
  }
  override reward(): Promise<RateLimiterRes> {
    return unsupported('reward');
  }
  override set(): Promise<RateLimiterRes> {
    return unsupported('set');
  }
  override block(): Promise<RateLimiterRes> {
    return unsupported('block');
  }
}

// ---------------------------------------------------------------------------------------------
// Redis connection
// ---------------------------------------------------------------------------------------------

import type { Redis } from 'ioredis';

// Token bucket: a bucket of `points` tokens, refilled continuously at `points` per `duration`
// seconds ("gradual refill", docs/interface.md#limits), in Redis (one Lua script, one round trip)
// with an in-memory bucket of the same arithmetic as its insurance and as the limiter without Redis.
// rate-limiter-flexible's public API has no token bucket (its store classes count fixed windows), so
// this is a module of its own rather than a subclass of the library's internals
// (docs/adr/0008-rate-limits-are-token-buckets.md).
// ---------------------------------------------------------------------------------------------

/**
 * A bucket's answer to one request: `remainingPoints` whole tokens left, `msBeforeNext` the wait
 * until the next request of one token would pass (0 while tokens remain), `msUntilFull` the time
 * until the bucket is full again.
 */
export class TokenBucketRes {
  readonly allowed: boolean;
  readonly remainingPoints: number;
  readonly msUntilFull: number;
  readonly msBeforeNext: number;
  constructor(allowed: boolean, remainingPoints: number, msUntilFull: number, msBeforeNext: number) {
    this.allowed = allowed;
    this.remainingPoints = remainingPoints;
    this.msUntilFull = msUntilFull;
    this.msBeforeNext = msBeforeNext;
  }
}

/**
 * KEYS[1]: the bucket, a hash {t: tokens, at: last change in ms of the Redis clock}. ARGV: [1]
 * tokens to take (0: only look), [2] capacity, [3] refill window in seconds. Redis's own clock
 * (TIME; scripts replicate their effects since Redis 5) keeps every gateway on one time line. The
 * key expires when the bucket would be full, as a missing key means a full bucket. Returns
 * {allowed, whole tokens left, ms until full, ms until the next request passes} — the same
 * arithmetic as `takeTokens` below.
 */
const TOKEN_BUCKET_LUA = `
local take = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local window = tonumber(ARGV[3]) * 1000
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

/** The name the script is registered under on an ioredis client (ioredis sends EVALSHA, EVAL once on NOSCRIPT). */
const COMMAND = 'platformTokenBucket';

type TokenBucketReply = [allowed: number, remaining: number, msUntilFull: number, msBeforeNext: number];
type ScriptedRedis = Redis & { [COMMAND](key: string, take: number, capacity: number, windowSeconds: number): Promise<TokenBucketReply> };

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
  return new TokenBucketRes(allowed, Math.floor(tokens), msFor(capacity - tokens), msFor((allowed ? 1 : take) - tokens));
}

/** An allowed answer resolves, a refused one rejects with the answer (so a caller tells them apart by path). */
const settle = (res: TokenBucketRes): Promise<TokenBucketRes> => (res.allowed ? Promise.resolve(res) : Promise.reject(res));

export interface TokenBucketOptions {
  /** Bucket size, and tokens refilled per `duration`. */
  points: number;
  /** Seconds in which an empty bucket refills completely. */
  duration: number;
  /** Prefix of the Redis keys: a bucket is `${keyPrefix}:${key}`. */
  keyPrefix: string;
}

/**
 * The token bucket in this process's memory: the limiter when REDIS_URL is unset, and the insurance
 * of TokenBucketRedis when Redis fails. Buckets that have refilled are swept once per window.
 *
 * @example
 * const limiter = new TokenBucketMemory({ points: 60, duration: 60, keyPrefix: 'platform:rl:public' });
 * limiter.consume('203.0.113.7').then((res) => res.remainingPoints, (refused: TokenBucketRes) => refused.msBeforeNext);
 */
export class TokenBucketMemory {
  readonly points: number;
  readonly #windowMs: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: TokenBucketOptions) {
    this.points = options.points;
    this.#windowMs = options.duration * 1000;
    setInterval(() => {
      const now = performance.now();
      for (const [key, bucket] of this.#buckets) {
        if (bucket.tokens + ((now - bucket.at) * this.points) / this.#windowMs >= this.points) this.#buckets.delete(key);
      }
    }, this.#windowMs).unref();
  }

  /** Takes `take` tokens: resolves with the answer when they were there, rejects with it when not. */
  consume(key: string, take = 1): Promise<TokenBucketRes> {
    return settle(takeTokens(this.#buckets, key, take, this.points, this.#windowMs, performance.now()));
  }

  /** The bucket as it is, taking nothing. */
  get(key: string): Promise<TokenBucketRes> {
    return this.consume(key, 0);
  }
}

/**
 * The token bucket in Redis, shared by every gateway: one EVALSHA per request. While the client is
 * not connected (`status` other than `ready`) the insurance answers at once without asking Redis;
 * when the script errs or times out (the client's command timeout), the insurance answers that
 * request.
 *
 * @example
 * const memory = new TokenBucketMemory(options);
 * const limiter = new TokenBucketRedis({ ...options, storeClient: redis, insuranceLimiter: memory });
 */
export class TokenBucketRedis {
  readonly points: number;
  readonly #duration: number;
  readonly #keyPrefix: string;
  readonly #redis: ScriptedRedis;
  readonly #insurance: TokenBucketMemory;

  constructor(options: TokenBucketOptions & { storeClient: Redis; insuranceLimiter: TokenBucketMemory }) {
    this.points = options.points;
    this.#duration = options.duration;
    this.#keyPrefix = options.keyPrefix;
    this.#insurance = options.insuranceLimiter;
    const redis = options.storeClient as ScriptedRedis;
    if (typeof redis[COMMAND] !== 'function') redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: TOKEN_BUCKET_LUA });
    this.#redis = redis;
  }

  /** Takes `take` tokens: resolves with the answer when they were there, rejects with it when not. */
  consume(key: string, take = 1): Promise<TokenBucketRes> {
    if (this.#redis.status !== 'ready') return this.#insurance.consume(key, take);
    return this.#redis[COMMAND](`${this.#keyPrefix}:${key}`, take, this.points, this.#duration).then(
      ([allowed, remaining, msUntilFull, msBeforeNext]) => settle(new TokenBucketRes(allowed === 1, remaining, msUntilFull, msBeforeNext)),
      () => this.#insurance.consume(key, take),
    );
  }

  /** The bucket as it is, taking nothing. */
  get(key: string): Promise<TokenBucketRes> {
    return this.consume(key, 0);
  }
}

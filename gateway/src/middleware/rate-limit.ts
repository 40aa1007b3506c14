import { isIP } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import IPCIDR from 'ip-cidr';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '@platform/libs/config/config.ts';
import type { Language } from '@platform/libs/i18n/messages.ts';
import type { Logger } from '@platform/libs/log/logger.ts';
import { clientIp, languageOf } from '../http/context.ts';
import { categoryOf, type PathCategory } from './paths.ts';

// ---------------------------------------------------------------------------------------------
// Token bucket on rate-limiter-flexible: a bucket of `points` tokens, refilled continuously at
// `points` per `duration` seconds ("gradual refill", platform-interface.md §8), in Redis (one Lua
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
 * EVALSHA per consume (auto-pipelined by ioredis), and the fall-back to `insuranceLimiter` whenever
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

/** Longest wait for Redis on a request before the in-memory insurance answers instead. */
const REDIS_COMMAND_TIMEOUT_MS = 200;

/**
 * An ioredis client for the hot path: auto-pipelined, no offline queue and a short command timeout,
 * so that a Redis that is gone or hangs costs at most REDIS_COMMAND_TIMEOUT_MS before the insurance
 * answers; it reconnects by itself (at most a second apart) and is used again once it is back.
 */
export function connectRedis(url: string, log: Logger, name: string): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  let up: boolean | undefined;
  redis.on('ready', () => {
    if (up === false) log.info('redis is back; rate limits are shared again', { connection: name });
    up = true;
  });
  redis.on('error', (error: Error) => {
    if (up !== false) log.warn('redis unavailable; rate limits fall back to this process memory', { connection: name, detail: error.message });
    up = false;
  });
  return redis;
}

// ---------------------------------------------------------------------------------------------
// The rate-limit step of the filter chain
// ---------------------------------------------------------------------------------------------

const IPV4_MAPPED = new IPCIDR('::ffff:0:0/96');

/**
 * Whom a limit counts: an IPv4 address as is, an IPv4-mapped IPv6 address as its IPv4 address, any
 * other IPv6 address by its /64 (one host usually holds a whole /64 and could otherwise spread its
 * requests over 2^64 addresses).
 */
export function clientKey(ip: string): string {
  // The common case first, without parsing: Node reports an IPv4 client of a dual-stack socket
  // as the dotted ::ffff:a.b.c.d, whose IPv4 part is already in its canonical form.
  if (ip.length > 7 && ip.slice(0, 7).toLowerCase() === '::ffff:' && isIP(ip.slice(7)) === 4) return ip.slice(7);
  if (isIP(ip) !== 6) return ip;
  try {
    const address = IPCIDR.createAddress(ip); // reads the dotted ::ffff:a.b.c.d as the IPv4 address
    if (!('to4' in address)) return address.correctForm();
    if (IPV4_MAPPED.contains(address)) return address.to4().correctForm();
    return `${new IPCIDR(`${address.correctForm()}/64`).start<IPCIDR.Address>({ type: 'addressObject' }).correctForm()}/64`;
  } catch {
    return ip;
  }
}

/**
 * `retryAfter` of the 429 body. platform-interface.md §7 gives it as "Seconds to wait (60)", so it
 * stays 60 (the contract changes only from outside); the Retry-After header carries the real wait.
 */
export const RETRY_AFTER_BODY_SECONDS = 60;

/** 429 with the rate-limit body of platform-interface.md §7 and Retry-After in whole seconds. */
export function sendTooManyRequests(req: Request, res: Response, retryAfterMs: number, message: Record<Language, string>): void {
  res
    .status(429)
    .setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))))
    .setHeader('Cache-Control', 'no-store')
    .json({ status: 429, error: 'Too Many Requests', message: message[languageOf(req, res)], retryAfter: RETRY_AFTER_BODY_SECONDS });
}

function perMinuteMessage(limit: number): Record<Language, string> {
  return {
    en: `Too many requests: at most ${limit} requests per minute are allowed from one address`,
    tr: `Çok fazla istek: bir adresten dakikada en fazla ${limit} isteğe izin verilir`,
  };
}

interface Tier {
  /** Requests per minute (RateLimit-Limit). */
  limit: number;
  limiter: TokenBucketRedis | TokenBucketMemory;
  message: Record<Language, string>;
}

/**
 * Step 3 of the filter chain (platform-interface.md §5, §8): the tier of the path (public, API key,
 * JWT) limits each client address. Every limited response carries RateLimit-Limit (the tier's
 * per-minute limit), RateLimit-Remaining and RateLimit-Reset (whole seconds until the bucket is full
 * again); one past the limit is answered 429 with Retry-After (whole seconds until a request passes)
 * and never reaches the JWT step.
 */
function limitRequests(tiers: Record<PathCategory, Tier>, log: Logger): RequestHandler {
  return (req, res, next) => {
    const tier = tiers[categoryOf(req.path)];
    const headers = (result: TokenBucketRes) => {
      res.setHeader('RateLimit-Limit', String(tier.limit));
      res.setHeader('RateLimit-Remaining', String(result.remainingPoints));
      res.setHeader('RateLimit-Reset', String(Math.ceil(result.msUntilFull / 1000)));
    };
    tier.limiter.consume(clientKey(clientIp(req))).then(
      (result) => {
        if (result instanceof TokenBucketRes) headers(result);
        next();
      },
      (refusal: unknown) => {
        if (refusal instanceof TokenBucketRes) {
          headers(refusal);
          sendTooManyRequests(req, res, refusal.msBeforeNext, tier.message);
          return;
        }
        // Neither Redis nor the in-memory insurance answered (not expected): serve rather than fail.
        log.error('rate limiter failed', { detail: refusal instanceof Error ? refusal.message : String(refusal) });
        next();
      },
    );
  };
}

// ---------------------------------------------------------------------------------------------
// Login brute-force guard
// ---------------------------------------------------------------------------------------------

/** Wrong passwords for one userCode from one address within LOGIN_WINDOW_SECONDS before logins of it are refused (decisions.md §9). */
export const LOGIN_FAILURES_PER_USER = 5;
/** Wrong passwords from one address across all users within LOGIN_WINDOW_SECONDS before its logins are refused. */
export const LOGIN_FAILURES_PER_ADDRESS = 50;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

export interface LoginRefusal {
  /** Milliseconds until a login of this user from this address is accepted again. */
  retryAfterMs: number;
  message: Record<Language, string>;
}

const USER_REFUSAL = {
  en: `Too many failed logins: at most ${LOGIN_FAILURES_PER_USER} wrong passwords per user and address in 15 minutes`,
  tr: `Çok fazla başarısız giriş: 15 dakikada kullanıcı ve adres başına en fazla ${LOGIN_FAILURES_PER_USER} hatalı şifre`,
};
const ADDRESS_REFUSAL = {
  en: `Too many failed logins: at most ${LOGIN_FAILURES_PER_ADDRESS} wrong passwords per address in 15 minutes`,
  tr: `Çok fazla başarısız giriş: 15 dakikada adres başına en fazla ${LOGIN_FAILURES_PER_ADDRESS} hatalı şifre`,
};

/**
 * Counts wrong passwords in fixed 15-minute windows that start at the first failure, per
 * userCode + address and per address, in Redis (the library's own counter script, on a connection
 * of its own) with in-memory insurance, or in memory only without REDIS_URL.
 *
 * @example
 * const refusal = await loginGuard.check(userCode, clientIp(req));
 * if (refusal) return sendLoginRefusal(req, res, refusal);
 * // … the login call; on 401 SVC-SYS-1002: await loginGuard.failed(userCode, clientIp(req))
 * // on success: await loginGuard.succeeded(userCode, clientIp(req))
 */
export class LoginGuard {
  readonly #perUser: RateLimiterRedis | RateLimiterMemory;
  readonly #perAddress: RateLimiterRedis | RateLimiterMemory;
  readonly #log: Logger;

  constructor(redis: Redis | undefined, keyPrefix: string, log: Logger) {
    const limiter = (name: string, points: number) => {
      const options = { points, duration: LOGIN_WINDOW_SECONDS, keyPrefix: `${keyPrefix}:${name}` };
      const memory = new RateLimiterMemory(options);
      return redis ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: memory }) : memory;
    };
    this.#perUser = limiter('login-user', LOGIN_FAILURES_PER_USER);
    this.#perAddress = limiter('login-address', LOGIN_FAILURES_PER_ADDRESS);
    this.#log = log;
  }

  /** Before the login call: a refusal once either counter is used up, else undefined. */
  async check(userCode: string, ip: string): Promise<LoginRefusal | undefined> {
    const [user, address] =
      (await this.#guarded(() => Promise.all([this.#perUser.get(userKey(userCode, ip)), this.#perAddress.get(clientKey(ip))]))) ?? [];
    const refusals: LoginRefusal[] = [];
    if (user && user.consumedPoints >= LOGIN_FAILURES_PER_USER) refusals.push({ retryAfterMs: user.msBeforeNext, message: USER_REFUSAL });
    if (address && address.consumedPoints >= LOGIN_FAILURES_PER_ADDRESS) refusals.push({ retryAfterMs: address.msBeforeNext, message: ADDRESS_REFUSAL });
    return refusals.sort((a, b) => b.retryAfterMs - a.retryAfterMs)[0];
  }

  /** After a login answered 401 SVC-SYS-1002 (wrong user code or password). */
  async failed(userCode: string, ip: string): Promise<void> {
    await this.#guarded(() => Promise.all([this.#perUser.penalty(userKey(userCode, ip)), this.#perAddress.penalty(clientKey(ip))]));
  }

  /** After a successful login: the user's count from this address starts again (the address's does not). */
  async succeeded(userCode: string, ip: string): Promise<void> {
    await this.#guarded(() => this.#perUser.delete(userKey(userCode, ip)));
  }

  /** Neither Redis nor the insurance answering is not expected; a login is then neither refused nor counted. */
  async #guarded<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      this.#log.error('login guard failed', { detail: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  }
}

function userKey(userCode: string, ip: string): string {
  return `${clientKey(ip)}|${userCode.toLowerCase()}`;
}

/** 429 with the rate-limit body for a login the guard refused. */
export function sendLoginRefusal(req: Request, res: Response, refusal: LoginRefusal): void {
  sendTooManyRequests(req, res, refusal.retryAfterMs, refusal.message);
}

// ---------------------------------------------------------------------------------------------
// Wiring
// ---------------------------------------------------------------------------------------------

export interface RateLimiting {
  /** Step 3 of the filter chain. */
  middleware: RequestHandler;
  loginGuard: LoginGuard;
  /** The `redis` component of /actuator/health when REDIS_URL is set (decisions.md §8), else none. */
  health(): Promise<Record<string, { status: 'UP' | 'DOWN' }>>;
}

/**
 * The gateway's limits from the configuration: Redis-backed (REDIS_URL, shared by every gateway
 * process; keys under REDIS_KEY_PREFIX) with in-memory insurance, or in memory only.
 */
export function createRateLimiting(config: Config, log: Logger): RateLimiting {
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log, 'gateway-rate-limit') : undefined;
  // The login guard runs the library's own counter script, so it needs a connection of its own.
  const loginRedis = redis?.duplicate({ connectionName: 'gateway-login-guard' });
  loginRedis?.on('error', () => undefined); // the same Redis: `redis` logs its outages
  const tier = (name: string, limit: number): Tier => {
    const options = { points: limit, duration: 60, keyPrefix: `${config.redisKeyPrefix}:rl:${name}` };
    const memory = new TokenBucketMemory(options);
    const limiter = redis ? new TokenBucketRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
    return { limit, limiter, message: perMinuteMessage(limit) };
  };
  const tiers: Record<PathCategory, Tier> = {
    public: tier('public', config.rateLimit.public),
    'api-key': tier('api-key', config.rateLimit.apiKey),
    jwt: tier('jwt', config.rateLimit.jwt),
  };
  return {
    middleware: limitRequests(tiers, log),
    loginGuard: new LoginGuard(loginRedis, `${config.redisKeyPrefix}:rl`, log),
    health: async (): Promise<Record<string, { status: 'UP' | 'DOWN' }>> => {
      if (!redis) return {};
      const up = await redis.ping().then(
        (reply) => reply === 'PONG',
        () => false,
      );
      return { redis: { status: up ? 'UP' : 'DOWN' } };
    },
  };
}

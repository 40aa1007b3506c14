import { isIP } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import IPCIDR from 'ip-cidr';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '@platform/libs/config/config.ts';
import type { Language } from '@platform/libs/i18n/messages.ts';
import type { Logger } from '@platform/libs/log/logger.ts';
import { categoryOfRequest, clientIp, languageOf } from '../http/context.ts';
import type { PathCategory } from './paths.ts';

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
    const tier = tiers[categoryOfRequest(req, res)];
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

/** Seconds an admitted attempt counts as in progress at most (a gateway that stopped mid-login cannot settle it). */
const LOGIN_PENDING_SECONDS = 60;
/** How long an attempt waits for one in progress to end before it is refused with Retry-After 1. */
export const LOGIN_QUEUE_MS = 10_000;
/** How often a waiting attempt looks again, for attempts that end on another gateway process. */
const LOGIN_QUEUE_POLL_MS = 250;

const USER_REFUSAL = {
  en: `Too many failed logins: at most ${LOGIN_FAILURES_PER_USER} wrong passwords per user and address in 15 minutes`,
  tr: `Çok fazla başarısız giriş: 15 dakikada kullanıcı ve adres başına en fazla ${LOGIN_FAILURES_PER_USER} hatalı şifre`,
};
const ADDRESS_REFUSAL = {
  en: `Too many failed logins: at most ${LOGIN_FAILURES_PER_ADDRESS} wrong passwords per address in 15 minutes`,
  tr: `Çok fazla başarısız giriş: 15 dakikada adres başına en fazla ${LOGIN_FAILURES_PER_ADDRESS} hatalı şifre`,
};
const BUSY_REFUSAL = {
  en: 'Too many logins in progress for this user from this address: try again in a moment',
  tr: 'Bu kullanıcı için bu adresten devam eden çok fazla giriş var: biraz sonra tekrar deneyin',
};

/**
 * What one password guard counts and says: the login guard's wrong passwords per user, and the
 * share-link guard's per link (decisions.md §9: "The sixth wrong share-link password (or login
 * password) for one link or user from one IP within 15 minutes gets 429"). `name` sets its keys apart.
 */
export interface PasswordGuardKind {
  name: string;
  userRefusal: Record<Language, string>;
  addressRefusal: Record<Language, string>;
  busyRefusal: Record<Language, string>;
}

export const LOGIN_GUARD: PasswordGuardKind = { name: 'login', userRefusal: USER_REFUSAL, addressRefusal: ADDRESS_REFUSAL, busyRefusal: BUSY_REFUSAL };

/** The share-link password guard: the same counts, keyed by the link's token in place of a userCode. */
export const SHARE_PASSWORD_GUARD: PasswordGuardKind = {
  name: 'share-password',
  userRefusal: {
    en: `Too many wrong share-link passwords: at most ${LOGIN_FAILURES_PER_USER} per link and address in 15 minutes`,
    tr: `Çok fazla hatalı paylaşım bağlantısı şifresi: 15 dakikada bağlantı ve adres başına en fazla ${LOGIN_FAILURES_PER_USER}`,
  },
  addressRefusal: {
    en: `Too many wrong share-link passwords: at most ${LOGIN_FAILURES_PER_ADDRESS} per address in 15 minutes`,
    tr: `Çok fazla hatalı paylaşım bağlantısı şifresi: 15 dakikada adres başına en fazla ${LOGIN_FAILURES_PER_ADDRESS}`,
  },
  busyRefusal: {
    en: 'Too many password checks in progress for this link from this address: try again in a moment',
    tr: 'Bu bağlantı için bu adresten devam eden çok fazla şifre denetimi var: biraz sonra tekrar deneyin',
  },
};

type Limiter = RateLimiterRedis | RateLimiterMemory;

/** The two counts of one key: wrong passwords in the window, and attempts admitted and not yet settled. */
interface Counter {
  name: 'user' | 'address';
  limit: number;
  failures: Limiter;
  pending: Limiter;
  refusal: Record<Language, string>;
}

/**
 * Counts wrong passwords in fixed 15-minute windows that start at the first failure, per
 * userCode + address and per address, in Redis (the library's own counter scripts, on a connection
 * of its own) with in-memory insurance, or in memory only without REDIS_URL.
 *
 * Parallel attempts cannot get past the limit between a check and a count: every attempt is first
 * counted as pending (an atomic increment), and is admitted only while the failures and the pending
 * attempts, its own included, stay within the limit. So at most LOGIN_FAILURES_PER_USER wrong
 * passwords are ever tried, however many arrive at once. An attempt that finds the limit taken up by
 * attempts in progress waits (in line, up to LOGIN_QUEUE_MS) for one of them to end, then is judged again:
 * right passwords sent at once all get in, a few at a time; wrong ones are refused once five have
 * failed. Only one that waited in vain gets 429 with Retry-After 1 rather than the window's wait.
 *
 * @example
 * const admitted = await loginGuard.admit(userCode, clientIp(req)); // may wait for one in progress
 * if (admitted.refusal) return sendLoginRefusal(req, res, admitted.refusal);
 * // … the login call; then exactly one of:
 * await admitted.settle('wrong-password');   // 401 SVC-SYS-1002: counted
 * await admitted.settle('success');          // the user's count from this address starts again
 * await admitted.settle('other');            // no password was judged: nothing counted
 */
export class LoginGuard {
  readonly #counters: [Counter, Counter];
  readonly #log: Logger;
  readonly #busy: Record<Language, string>;
  /** Attempts of this process waiting in line for one in progress to end, by the key that was full, oldest first. */
  readonly #queues = new Map<string, Waiter[]>();

  constructor(redis: Redis | undefined, keyPrefix: string, log: Logger, kind: PasswordGuardKind = LOGIN_GUARD) {
    const limiter = (name: string, points: number, duration: number): Limiter => {
      const options = { points, duration, keyPrefix: `${keyPrefix}:${name}` };
      const memory = new RateLimiterMemory(options);
      return redis ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: memory }) : memory;
    };
    const counter = (name: Counter['name'], limit: number, refusal: Record<Language, string>): Counter => ({
      name,
      limit,
      failures: limiter(`${kind.name}-${name}`, limit, LOGIN_WINDOW_SECONDS),
      // Points far above any limit: the count is compared here, never refused by the library.
      pending: limiter(`${kind.name}-${name}-pending`, 1_000_000, LOGIN_PENDING_SECONDS),
      refusal,
    });
    this.#counters = [counter('user', LOGIN_FAILURES_PER_USER, kind.userRefusal), counter('address', LOGIN_FAILURES_PER_ADDRESS, kind.addressRefusal)];
    this.#log = log;
    this.#busy = kind.busyRefusal;
  }

  /** Before the login call: an admitted attempt to settle after it, or a refusal (nothing to settle). */
  async admit(userCode: string, ip: string): Promise<LoginAttempt> {
    const keys = this.#keys(userCode, ip);
    const attemptOf = (verdict: Verdict) =>
      new LoginAttempt(this, keys, verdict.kind === 'admitted', verdict.kind === 'refused' || verdict.kind === 'busy' ? verdict.refusal : undefined);
    // Attempts of this process already waiting on one of the keys: get in line behind them.
    const queued = keys.find((key) => this.#queues.has(key));
    const first = queued === undefined ? await this.#judge(keys) : undefined;
    if (first && first.kind !== 'busy') return attemptOf(first);
    const key = first?.kind === 'busy' ? first.key : (queued ?? keys[0]);
    const queue = this.#queues.get(key) ?? [];
    this.#queues.set(key, queue);
    // A wake that comes before the wait begins is kept, not lost.
    let woken = false;
    let endWait: (() => void) | undefined;
    const me: Waiter = {
      wake: () => {
        woken = true;
        endWait?.();
      },
    };
    queue.push(me);
    const deadline = Date.now() + LOGIN_QUEUE_MS;
    // The first look, when there was one, was just taken: wait before the next.
    let justJudged = first !== undefined;
    try {
      for (;;) {
        if (!justJudged) {
          if (queue[0] === me) {
            const verdict = await this.#judge(keys);
            if (verdict.kind !== 'busy' || Date.now() >= deadline) return attemptOf(verdict);
          } else if (Date.now() >= deadline) {
            return attemptOf({ kind: 'busy', key, refusal: { retryAfterMs: 1_000, message: this.#busy } });
          }
        }
        justJudged = false;
        // Woken when an attempt on the key settles here; the timer covers those that end on another process.
        await new Promise<void>((resolve) => {
          if (woken) return resolve();
          const timer = setTimeout(done, Math.max(0, Math.min(LOGIN_QUEUE_POLL_MS, deadline - Date.now())));
          function done(): void {
            clearTimeout(timer);
            endWait = undefined;
            resolve();
          }
          endWait = done;
        });
        woken = false;
      }
    } finally {
      queue.splice(queue.indexOf(me), 1);
      if (queue.length === 0) this.#queues.delete(key);
      else queue[0]?.wake();
    }
  }

  /** One look at both counters; an attempt that is not admitted counts nothing. */
  async #judge(keys: readonly string[]): Promise<Verdict> {
    const counts = await this.#guarded(() =>
      Promise.all(
        this.#counters.map(async (counter, i) => {
          const key = keys[i] ?? '';
          // The pending increment first: an attempt counted before this read is in it or, if it
          // has settled since, in the failures read after it (then counted twice, never not at all).
          const pending = await counter.pending.consume(key);
          const failures = await counter.failures.get(key);
          return { counter, key, pending: pending.consumedPoints, failures: failures?.consumedPoints ?? 0, msBeforeNext: failures?.msBeforeNext ?? 0 };
        }),
      ),
    );
    // Neither Redis nor the insurance answered (not expected): the login is neither refused nor counted.
    if (!counts) return { kind: 'unchecked' };
    let verdict: Verdict = { kind: 'admitted' };
    for (const { counter, key, pending, failures, msBeforeNext } of counts) {
      if (failures >= counter.limit) {
        if (verdict.kind !== 'refused' || msBeforeNext > verdict.refusal.retryAfterMs) verdict = { kind: 'refused', refusal: { retryAfterMs: msBeforeNext, message: counter.refusal } };
      } else if (failures + pending > counter.limit && verdict.kind === 'admitted') {
        verdict = { kind: 'busy', key, refusal: { retryAfterMs: 1_000, message: counter.name === 'user' ? this.#busy : counter.refusal } };
      }
    }
    if (verdict.kind !== 'admitted') await this.#release(keys);
    return verdict;
  }

  /** Gives the pending counts back. */
  async #release(keys: readonly string[]): Promise<void> {
    await this.#guarded(() => Promise.all(this.#counters.map((counter, i) => counter.pending.reward(keys[i] ?? '', 1))));
  }

  /** @internal LoginAttempt's settlement. */
  async settle(keys: readonly string[], outcome: LoginOutcome): Promise<void> {
    await this.#guarded(() =>
      Promise.all(
        this.#counters.map(async (counter, i) => {
          const key = keys[i] ?? '';
          // Failures first, then the pending count: the attempt is counted in one or both meanwhile.
          if (outcome === 'wrong-password') await counter.failures.penalty(key, 1);
          if (outcome === 'success' && counter.name === 'user') await counter.failures.delete(key);
          await counter.pending.reward(key, 1);
        }),
      ),
    );
    // A place is free: the first in line on each key looks again.
    for (const key of keys) this.#queues.get(key)?.[0]?.wake();
  }

  #keys(userCode: string, ip: string): [string, string] {
    return [userKey(userCode, ip), clientKey(ip)];
  }

  async #guarded<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      this.#log.error('login guard failed', { detail: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  }
}

interface Waiter {
  wake(): void;
}

type Verdict =
  | { kind: 'admitted' }
  | { kind: 'unchecked' }
  | { kind: 'refused'; refusal: LoginRefusal }
  | { kind: 'busy'; key: string; refusal: LoginRefusal };

/** How an admitted login ended: a wrong user code or password (401 SVC-SYS-1002), a success, or anything else. */
export type LoginOutcome = 'wrong-password' | 'success' | 'other';

/** One login attempt the guard admitted (or refused: then `refusal` is set and there is nothing to settle). */
export class LoginAttempt {
  readonly #guard: LoginGuard;
  readonly #keys: readonly string[];
  #open: boolean;
  readonly refusal: LoginRefusal | undefined;

  constructor(guard: LoginGuard, keys: readonly string[], open: boolean, refusal?: LoginRefusal) {
    this.#guard = guard;
    this.#keys = keys;
    this.#open = open;
    this.refusal = refusal;
  }

  /** Once: counts a wrong password, or starts the user's count again after a success; either way the attempt is no longer pending. */
  async settle(outcome: LoginOutcome): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    await this.#guard.settle(this.#keys, outcome);
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
  /** Wrong share-link passwords per link and address (POST /api/dms-share-link/public/{token}/validate-password). */
  sharePasswordGuard: LoginGuard;
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
    sharePasswordGuard: new LoginGuard(loginRedis, `${config.redisKeyPrefix}:rl`, log, SHARE_PASSWORD_GUARD),
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

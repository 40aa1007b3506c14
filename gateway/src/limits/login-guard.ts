import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Language } from '@platform/kit/i18n/messages.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import { clientKey } from './client-key.ts';
import { LoginAttempt, type LoginOutcome, type LoginRefusal } from './login-attempt.ts';
import { LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_USER, LOGIN_GUARD, LOGIN_WINDOW_SECONDS, type PasswordGuardKind } from './password-guard-kinds.ts';
import { Line, Waiter } from './waiting-line.ts';

/** Seconds an admitted attempt counts as in progress at most (a gateway that stopped mid-login cannot settle it). */
const LOGIN_PENDING_SECONDS = 60;
/** How long an attempt waits for one in progress to end before it is refused with Retry-After 1. */
export const LOGIN_QUEUE_MS = 10_000;
/** How often a waiting attempt looks again, for attempts that end on another gateway process. */
const LOGIN_QUEUE_POLL_MS = 250;

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
  readonly #kind: string;
  readonly #refusals: RefusalCounter | undefined;
  /** Attempts of this process waiting in line for one in progress to end, by the key that was full. */
  readonly #queues = new Map<string, Line>();

  constructor(redis: Redis | undefined, keyPrefix: string, log: Logger, kind: PasswordGuardKind = LOGIN_GUARD, refusals?: RefusalCounter) {
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
    this.#kind = kind.name;
    this.#refusals = refusals;
  }

  /** Before the login call: an admitted attempt to settle after it, or a refusal (nothing to settle). */
  async admit(userCode: string, ip: string): Promise<LoginAttempt> {
    const keys = this.#keys(userCode, ip);
    const attemptOf = (verdict: Verdict) => {
      if (verdict.kind === 'admitted') return new LoginAttempt((outcome) => this.#settle(keys, outcome, verdict.afterFailures));
      if (verdict.kind === 'unchecked') return new LoginAttempt(undefined);
      this.#refusals?.guardRefused(this.#kind, verdict.kind);
      return new LoginAttempt(undefined, verdict.refusal);
    };
    // Attempts of this process already waiting on one of the keys: get in line behind them.
    const queued = keys.find((key) => this.#queues.has(key));
    const first = queued === undefined ? await this.#judge(keys) : undefined;
    if (first && first.kind !== 'busy') return attemptOf(first);
    const key = first?.kind === 'busy' ? first.key : (queued ?? keys[0]);
    const line = this.#queues.get(key) ?? new Line();
    this.#queues.set(key, line);
    const me = new Waiter();
    line.waiters.push(me);
    const deadline = Date.now() + LOGIN_QUEUE_MS;
    let verdict: Verdict | undefined;
    try {
      // The first look, when there was one, was just taken: wait before the next.
      for (let look = first === undefined; ;) {
        if (look) {
          if (line.waiters[0] === me) {
            // The place a settlement here freed is this look's to take; a poll's look takes none.
            if (line.freed > 0) line.freed--;
            verdict = await this.#judge(keys);
            if (verdict.kind !== 'busy' || Date.now() >= deadline) return attemptOf(verdict);
          } else if (Date.now() >= deadline) {
            verdict = { kind: 'busy', key, refusal: { retryAfterMs: 1_000, message: this.#busy } };
            return attemptOf(verdict);
          }
        }
        // The first in line looks again when a settlement here wakes it, and every LOGIN_QUEUE_POLL_MS
        // for those that end on another process; the others only wait for their turn or their deadline.
        const left = Math.max(0, deadline - Date.now());
        look = await me.wait(line.waiters[0] === me ? Math.min(LOGIN_QUEUE_POLL_MS, left) : left);
      }
    } finally {
      const wasFirst = line.waiters[0] === me;
      line.waiters.splice(line.waiters.indexOf(me), 1);
      if (line.waiters.length === 0) this.#queues.delete(key);
      // The next in line is first now. It looks at once only when a look could succeed: a place freed
      // here that this attempt did not take, or a verdict (refused, unchecked, out of time) not about
      // places; otherwise it only starts polling.
      else if (wasFirst) line.waiters[0]?.wake(line.freed > 0 || verdict?.kind !== 'admitted');
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
    let verdict: Verdict = { kind: 'admitted', afterFailures: counts.some(({ counter, failures }) => counter.name === 'user' && failures > 0) };
    for (const { counter, key, pending, failures, msBeforeNext } of counts) {
      if (failures >= counter.limit) {
        if (verdict.kind !== 'refused' || msBeforeNext > verdict.refusal.retryAfterMs)
          verdict = { kind: 'refused', refusal: { retryAfterMs: msBeforeNext, message: counter.refusal } };
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

  /**
   * An admitted attempt's settlement (LoginAttempt.settle): a wrong password counted, or after a
   * success the failures counted when it was admitted deleted; the attempt no longer pending.
   */
  async #settle(keys: readonly string[], outcome: LoginOutcome, failuresCounted: boolean): Promise<void> {
    await this.#guarded(() =>
      Promise.all(
        this.#counters.map(async (counter, i) => {
          const key = keys[i] ?? '';
          // Failures first, then the pending count: the attempt is counted in one or both meanwhile.
          if (outcome === 'wrong-password') await counter.failures.penalty(key, 1);
          if (outcome === 'success' && failuresCounted && counter.name === 'user') await counter.failures.delete(key);
          await counter.pending.reward(key, 1);
        }),
      ),
    );
    // A place is free: the first in line on each key looks again.
    for (const key of keys) {
      const line = this.#queues.get(key);
      if (!line) continue;
      line.freed++;
      line.waiters[0]?.wake(true);
    }
  }

  #keys(userCode: string, ip: string): [string, string] {
    return [userKey(userCode, ip), clientKey(ip)];
  }

  async #guarded<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      this.#log.error({ err: error }, 'login guard failed');
      return undefined;
    }
  }
}

/** Where a guard counts its refusals (the gateway's metrics). */
export interface RefusalCounter {
  guardRefused(guard: string, reason: 'refused' | 'busy'): void;
}

type Verdict =
  /** afterFailures: wrong passwords of the user from this address were counted when it was admitted. */
  | { kind: 'admitted'; afterFailures: boolean }
  | { kind: 'unchecked' }
  | { kind: 'refused'; refusal: LoginRefusal }
  | { kind: 'busy'; key: string; refusal: LoginRefusal };

function userKey(userCode: string, ip: string): string {
  return `${clientKey(ip)}|${userCode.toLowerCase()}`;
}

/**
 * The login brute-force guard (docs/interface.md#limits: "The sixth wrong … login password for one … user
 * from one IP within 15 minutes gets 429 with the rate-limit body"), exercised in process against
 * the suite's real Redis (under a prefix of its own), in memory, and with Redis gone. Its wiring into
 * POST /api/auth/login belongs to the auth routes.
 */
import test from 'ava';
import { createLogger } from '@platform/kit/log/logger.ts';
import { connectRedis } from '../gateway/src/limits/redis-connection.ts';
import type { LoginOutcome } from '../gateway/src/limits/login-attempt.ts';
import { LOGIN_QUEUE_MS, LoginGuard } from '../gateway/src/limits/login-guard.ts';
import { LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_USER, LOGIN_WINDOW_SECONDS } from '../gateway/src/limits/password-guard-kinds.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import { platform } from './helpers/platform.ts';
import { keysUnder, redisClient, uniquePrefix } from './helpers/redis.ts';

const quiet = createLogger('test', 'silent');
const redisUrl = platform.env.REDIS_URL ?? '';
const prefixes: string[] = [];
/** A prefix for one guard; its keys (15-minute windows) are deleted after the file. */
const guardPrefix = () => {
  const prefix = uniquePrefix('edge-login');
  prefixes.push(prefix);
  return prefix;
};

test.after.always(async () => {
  const client = redisClient(redisUrl);
  try {
    for (const prefix of prefixes) {
      const keys = await keysUnder(client, `${prefix}:`);
      if (keys.length > 0) await client.del(...keys);
    }
  } finally {
    client.disconnect();
  }
});

async function connected(url: string) {
  const redis = connectRedis(url, quiet, 'edge-login-guard-test');
  await new Promise<void>((resolve, reject) => {
    redis.once('ready', resolve);
    setTimeout(() => reject(new Error(`no Redis at ${url}`)), 3000).unref();
  });
  return redis;
}

/** One login attempt as the auth route makes it, ending as `outcome` when admitted; its refusal, if any. */
async function attempt(guard: LoginGuard, userCode: string, ip: string, outcome: LoginOutcome) {
  const admitted = await guard.admit(userCode, ip);
  if (!admitted.refusal) await admitted.settle(outcome);
  return admitted.refusal;
}
const wrongPassword = (guard: LoginGuard, userCode: string, ip: string) => attempt(guard, userCode, ip, 'wrong-password');
/** Whether a login would be refused now, counting nothing. */
const check = (guard: LoginGuard, userCode: string, ip: string) => attempt(guard, userCode, ip, 'other');

for (const store of ['redis', 'memory'] as const) {
  const make = async () => {
    if (store === 'memory') return { guard: new LoginGuard(undefined, guardPrefix(), quiet), done: () => undefined };
    const redis = await connected(redisUrl);
    return { guard: new LoginGuard(redis, guardPrefix(), quiet), done: () => redis.disconnect() };
  };

  test(`${store}: five wrong passwords pass, the sixth for that user from that address is refused for up to 15 minutes`, async (t) => {
    const { guard, done } = await make();
    try {
      for (let i = 1; i <= LOGIN_FAILURES_PER_USER; i++) t.is(await wrongPassword(guard, 'Alice', '198.51.100.50'), undefined, `attempt ${i}`);
      const refusal = await check(guard, 'Alice', '198.51.100.50');
      t.truthy(refusal, 'the sixth attempt');
      t.true((refusal?.retryAfterMs ?? 0) > (LOGIN_WINDOW_SECONDS - 5) * 1000 && (refusal?.retryAfterMs ?? 0) <= LOGIN_WINDOW_SECONDS * 1000);
      t.is(refusal?.message.en, 'Too many failed logins: at most 5 wrong passwords per user and address in 15 minutes');
      t.is(await check(guard, 'alice', '198.51.100.50').then(Boolean), true, 'userCode in any case');
      t.is(await check(guard, 'Alice', '::ffff:198.51.100.50').then(Boolean), true, 'the address in its IPv4-mapped form');
      t.is(await check(guard, 'Alice', '198.51.100.51'), undefined, 'the same user from another address');
      t.is(await check(guard, 'Bob', '198.51.100.50'), undefined, 'another user from the same address');
    } finally {
      done();
    }
  });

  test(`${store}: twenty wrong passwords at once: exactly ${LOGIN_FAILURES_PER_USER} are tried, the others wait and are refused`, async (t) => {
    const { guard, done } = await make();
    try {
      // Each admitted attempt is judged a moment later, like a login call. A guard that counted
      // after the login (check, then count) would let all twenty try.
      let tried = 0;
      const refusals = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const admitted = await guard.admit('mallory', '198.51.100.57');
          if (admitted.refusal) return admitted.refusal;
          tried++;
          await new Promise((resolve) => setTimeout(resolve, 20));
          await admitted.settle('wrong-password');
          return undefined;
        }),
      );
      t.is(tried, LOGIN_FAILURES_PER_USER);
      for (const refusal of refusals.filter(Boolean)) {
        t.is(refusal?.message.en, 'Too many failed logins: at most 5 wrong passwords per user and address in 15 minutes');
        t.true((refusal?.retryAfterMs ?? 0) > 60_000, 'for the rest of the window');
      }
      t.truthy(await check(guard, 'mallory', '198.51.100.57'));
    } finally {
      done();
    }
  });

  test(`${store}: with four wrong passwords counted, of three attempts at once one is tried`, async (t) => {
    const { guard, done } = await make();
    try {
      for (let i = 0; i < LOGIN_FAILURES_PER_USER - 1; i++) await wrongPassword(guard, 'oscar', '198.51.100.59');
      const results = await Promise.all(Array.from({ length: 3 }, () => wrongPassword(guard, 'oscar', '198.51.100.59')));
      t.is(results.filter((refusal) => refusal === undefined).length, 1);
      t.truthy(await check(guard, 'oscar', '198.51.100.59'));
    } finally {
      done();
    }
  });

  test(`${store}: right passwords at once all get in, at most ${LOGIN_FAILURES_PER_USER} in progress at a time, and count nothing`, async (t) => {
    const { guard, done } = await make();
    try {
      let inProgress = 0;
      let most = 0;
      const refusals = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const admitted = await guard.admit('peggy', '198.51.100.60');
          if (admitted.refusal) return admitted.refusal;
          most = Math.max(most, ++inProgress);
          await new Promise((resolve) => setTimeout(resolve, 30));
          inProgress--;
          await admitted.settle('success');
          return undefined;
        }),
      );
      t.deepEqual(refusals.filter(Boolean), [], 'none refused');
      t.is(most, LOGIN_FAILURES_PER_USER);
      for (let i = 1; i <= 2 * LOGIN_FAILURES_PER_USER; i++)
        t.is(await check(guard, 'peggy', '198.51.100.60'), undefined, `a login that judged no password ${i}`);
      for (let i = 1; i <= LOGIN_FAILURES_PER_USER; i++) t.is(await wrongPassword(guard, 'peggy', '198.51.100.60'), undefined, `wrong password ${i}`);
      t.truthy(await check(guard, 'peggy', '198.51.100.60'));
    } finally {
      done();
    }
  });

  test(`${store}: an attempt that waits in vain for one in progress is refused with a Retry-After of a second`, async (t) => {
    const { guard, done } = await make();
    try {
      const held = await Promise.all(Array.from({ length: LOGIN_FAILURES_PER_USER }, () => guard.admit('walter', '198.51.100.61')));
      t.true(held.every((a) => !a.refusal));
      const started = Date.now();
      const late = await guard.admit('walter', '198.51.100.61');
      t.true(Date.now() - started >= LOGIN_QUEUE_MS - 100, 'it waited its time in line');
      t.is(late.refusal?.retryAfterMs, 1000);
      t.is(late.refusal?.message.en, 'Too many logins in progress for this user from this address: try again in a moment');
      await Promise.all(held.map((a) => a.settle('other')));
      t.is(await check(guard, 'walter', '198.51.100.61'), undefined, 'free again once they end');
    } finally {
      done();
    }
  });

  test(`${store}: a successful login starts the user's count again`, async (t) => {
    const { guard, done } = await make();
    try {
      for (let i = 0; i < LOGIN_FAILURES_PER_USER - 1; i++) await wrongPassword(guard, 'carol', '198.51.100.52');
      await attempt(guard, 'carol', '198.51.100.52', 'success');
      for (let i = 1; i <= LOGIN_FAILURES_PER_USER; i++) t.is(await wrongPassword(guard, 'carol', '198.51.100.52'), undefined, `attempt ${i}`);
      t.truthy(await check(guard, 'carol', '198.51.100.52'));
    } finally {
      done();
    }
  });

  test(`${store}: ${LOGIN_FAILURES_PER_ADDRESS} wrong passwords from one address across users refuse every login from it`, async (t) => {
    const { guard, done } = await make();
    try {
      for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) t.is(await wrongPassword(guard, `user-${i}`, '198.51.100.53'), undefined);
      const refusal = await check(guard, 'someone-new', '198.51.100.53');
      t.is(refusal?.message.en, 'Too many failed logins: at most 50 wrong passwords per address in 15 minutes');
      await attempt(guard, 'someone-new', '198.51.100.53', 'success');
      t.truthy(await check(guard, 'someone-new', '198.51.100.53'), 'a success does not reset the address count');
      t.is(await check(guard, 'someone-new', '198.51.100.54'), undefined);
    } finally {
      done();
    }
  });
}

test('redis: an attempt in line looks again only when a place is freed, not each time the one before it gets in', async (t) => {
  const redis = await connected(redisUrl);
  // A look reads both failure counts, each in a MULTI of its own: the MULTIs sent count the looks.
  let looks = 0;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command, stream) => {
    if (command.name === 'multi') looks += 0.5;
    return send(command, stream);
  };
  try {
    const guard = new LoginGuard(redis, guardPrefix(), quiet);
    const attempts = 12;
    let admittedSoFar = 0;
    const refusals = await Promise.all(
      Array.from({ length: attempts }, async () => {
        const admitted = await guard.admit('quentin', '198.51.100.62');
        if (admitted.refusal) return admitted.refusal;
        // Logins that take different times, so that they end one by one.
        await new Promise((resolve) => setTimeout(resolve, 10 * ++admittedSoFar));
        await admitted.settle('success');
        return undefined;
      }),
    );
    t.deepEqual(refusals.filter(Boolean), [], 'none refused');
    // Each looks once on arrival; the seven that found five in progress look once more each, when a
    // settlement frees a place (a poll, every 250 ms, may add one on a slow machine).
    const waited = attempts - LOGIN_FAILURES_PER_USER;
    t.true(looks >= attempts + waited, `${looks} looks`);
    t.true(looks <= attempts + waited + 2, `${looks} looks, at most ${attempts + waited + 2}`);
  } finally {
    redis.disconnect();
  }
});

test('redis: the counts live in Redis, under the prefix', async (t) => {
  const redis = await connected(redisUrl);
  const prefix = guardPrefix();
  const inspect = redisClient(redisUrl);
  try {
    const guard = new LoginGuard(redis, prefix, quiet);
    await wrongPassword(guard, 'dave', '198.51.100.55');
    t.deepEqual((await keysUnder(inspect, prefix)).sort(), [
      `${prefix}:login-address-pending:198.51.100.55`,
      `${prefix}:login-address:198.51.100.55`,
      `${prefix}:login-user-pending:198.51.100.55|dave`,
      `${prefix}:login-user:198.51.100.55|dave`,
    ]);
    t.is(await inspect.get(`${prefix}:login-user:198.51.100.55|dave`), '1', 'one wrong password');
    t.is(await inspect.get(`${prefix}:login-user-pending:198.51.100.55|dave`), '0', 'none in progress');
  } finally {
    redis.disconnect();
    inspect.disconnect();
  }
});

test('Redis unreachable: the in-memory insurance still refuses the sixth attempt', async (t) => {
  const redis = connectRedis(`redis://127.0.0.1:${await freePort()}`, quiet, 'edge-login-guard-test');
  try {
    const guard = new LoginGuard(redis, guardPrefix(), quiet);
    for (let i = 0; i < LOGIN_FAILURES_PER_USER; i++) t.is(await wrongPassword(guard, 'erin', '198.51.100.56'), undefined);
    t.truthy(await check(guard, 'erin', '198.51.100.56'));
  } finally {
    redis.disconnect();
  }
});

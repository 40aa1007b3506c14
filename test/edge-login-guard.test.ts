/**
 * The login brute-force guard (decisions.md §9: "The sixth wrong … login password for one … user
 * from one IP within 15 minutes gets 429 with the rate-limit body"), exercised in process against
 * the suite's real Redis (under a prefix of its own), in memory, and with Redis gone. Its wiring into
 * POST /api/auth/login belongs to the auth routes.
 */
import test from 'ava';
import type { Logger } from '@platform/libs/log/logger.ts';
import {
  connectRedis,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_FAILURES_PER_USER,
  LOGIN_WINDOW_SECONDS,
  LoginGuard,
} from '../gateway/src/middleware/rate-limit.ts';
import { freePort } from '../scripts/lib/processes.ts';
import { platform } from './helpers/platform.ts';
import { keysUnder, redisClient, uniquePrefix } from './helpers/redis.ts';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
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

/** One login attempt as the auth route makes it: check, then (the password being wrong) failed. */
async function wrongPassword(guard: LoginGuard, userCode: string, ip: string) {
  const refusal = await guard.check(userCode, ip);
  if (!refusal) await guard.failed(userCode, ip);
  return refusal;
}

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
      const refusal = await guard.check('Alice', '198.51.100.50');
      t.truthy(refusal, 'the sixth attempt');
      t.true((refusal?.retryAfterMs ?? 0) > (LOGIN_WINDOW_SECONDS - 5) * 1000 && (refusal?.retryAfterMs ?? 0) <= LOGIN_WINDOW_SECONDS * 1000);
      t.is(refusal?.message.en, 'Too many failed logins: at most 5 wrong passwords per user and address in 15 minutes');
      t.is(await guard.check('alice', '198.51.100.50').then(Boolean), true, 'userCode in any case');
      t.is(await guard.check('Alice', '::ffff:198.51.100.50').then(Boolean), true, 'the address in its IPv4-mapped form');
      t.is(await guard.check('Alice', '198.51.100.51'), undefined, 'the same user from another address');
      t.is(await guard.check('Bob', '198.51.100.50'), undefined, 'another user from the same address');
    } finally {
      done();
    }
  });

  test(`${store}: a successful login starts the user's count again`, async (t) => {
    const { guard, done } = await make();
    try {
      for (let i = 0; i < LOGIN_FAILURES_PER_USER - 1; i++) await wrongPassword(guard, 'carol', '198.51.100.52');
      await guard.succeeded('carol', '198.51.100.52');
      for (let i = 1; i <= LOGIN_FAILURES_PER_USER; i++) t.is(await wrongPassword(guard, 'carol', '198.51.100.52'), undefined, `attempt ${i}`);
      t.truthy(await guard.check('carol', '198.51.100.52'));
    } finally {
      done();
    }
  });

  test(`${store}: ${LOGIN_FAILURES_PER_ADDRESS} wrong passwords from one address across users refuse every login from it`, async (t) => {
    const { guard, done } = await make();
    try {
      for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) t.is(await wrongPassword(guard, `user-${i}`, '198.51.100.53'), undefined);
      const refusal = await guard.check('someone-new', '198.51.100.53');
      t.is(refusal?.message.en, 'Too many failed logins: at most 50 wrong passwords per address in 15 minutes');
      await guard.succeeded('someone-new', '198.51.100.53');
      t.truthy(await guard.check('someone-new', '198.51.100.53'), 'a success does not reset the address count');
      t.is(await guard.check('someone-new', '198.51.100.54'), undefined);
    } finally {
      done();
    }
  });
}

test('redis: the counts live in Redis, under the prefix', async (t) => {
  const redis = await connected(redisUrl);
  const prefix = guardPrefix();
  const inspect = redisClient(redisUrl);
  try {
    const guard = new LoginGuard(redis, prefix, quiet);
    await guard.failed('dave', '198.51.100.55');
    t.deepEqual((await keysUnder(inspect, prefix)).sort(), [`${prefix}:login-address:198.51.100.55`, `${prefix}:login-user:198.51.100.55|dave`]);
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
    t.truthy(await guard.check('erin', '198.51.100.56'));
  } finally {
    redis.disconnect();
  }
});

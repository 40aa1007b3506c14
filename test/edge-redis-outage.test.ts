/**
 * Redis failing under a running gateway. The contract keeps answering through it: docs/interface.md#running
 * makes Redis the shared store of the rate limits, docs/interface.md#errors leaves 5xx to "unexpected failure" and "a
 * backing service is unavailable", which a rate limiter is not; so the gateway keeps limiting on its
 * in-memory insurance — no 5xx, no hang — and goes back to Redis once Redis is back. docs/interface.md#health: the health
 * endpoint shows `redis` "when configured", DOWN while it is gone.
 *
 * The Redis here is a redis-server of this test's own on a free port, killed and restarted on that
 * port; the machine's Redis is never touched.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { REDIS_COMMAND_TIMEOUT_MS } from '../gateway/src/limits/redis-connection.ts';
import type { Platform } from '../scripts/lib/processes.ts';
import { api, type ApiResponse, platform } from './helpers/platform.ts';
import { logLine } from './helpers/platform-log.ts';
import { keysUnder, type RedisServer, redisClient, startGateway, startRedisServer, uniquePrefix, untilRedisUp } from './helpers/redis.ts';

const JWT_LIMIT = 10;
const prefix = uniquePrefix('edge-outage');
let redis: RedisServer;
let gateway: Platform;

test.before(async () => {
  redis = await startRedisServer();
  gateway = await startGateway(platform.env, {
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: prefix,
    TRUST_PROXY: '1',
    RATE_LIMIT_JWT: String(JWT_LIMIT),
  });
  await untilRedisUp(gateway);
});

test.after.always(async () => {
  await gateway?.stop();
  await redis?.stop();
});

/** Requests on a JWT path from `client`, all at once, each with a 2 s limit: a hang fails the test. */
async function burst(client: string, count: number): Promise<{ responses: ApiResponse[]; requestIds: string[] }> {
  const requestIds = Array.from({ length: count }, () => randomUUID());
  const responses = await Promise.all(
    requestIds.map((id) =>
      Promise.race([
        api('GET', '/api/auth/me', { baseUrl: gateway.url, headers: { 'x-forwarded-for': client, 'x-request-id': id } }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 2 s')), 2000).unref()),
      ]),
    ),
  );
  return { responses, requestIds };
}

/**
 * How long the gateway spent on each request, from its access line (`durationMs`): the time from
 * the request's arrival to its answer in the gateway itself, without this process's own queueing.
 */
async function gatewayMs(requestIds: string[]): Promise<number[]> {
  const lines = await Promise.all(requestIds.map((id) => logLine(id, (line) => line.source === 'gateway' && line.entry.msg === 'request completed')));
  return lines.map((line) => Number(line?.entry.durationMs ?? Number.NaN));
}

const count = (responses: ApiResponse[], status: number) => responses.filter((r) => r.status === status).length;

async function redisKeys(server: RedisServer): Promise<string[]> {
  const client = redisClient(server.url);
  try {
    return await keysUnder(client, prefix);
  } finally {
    client.disconnect();
  }
}

async function healthOfRedis(): Promise<string> {
  const res = await api('GET', '/actuator/health', { baseUrl: gateway.url, headers: { 'x-forwarded-for': '192.0.2.200' } });
  return res.body.components.redis?.status;
}

test.serial('with Redis up, the limit lives in Redis and /actuator/health shows redis UP', async (t) => {
  const { responses } = await burst('198.51.100.30', JWT_LIMIT + 2);
  t.is(count(responses, 401), JWT_LIMIT);
  t.is(count(responses, 429), 2);
  t.true((await redisKeys(redis)).includes(`${prefix}:rl:jwt:198.51.100.30`));
  t.is(await healthOfRedis(), 'UP');
});

test.serial('a Redis that hangs (SIGSTOP): each answer waits one command timeout for Redis, then the insurance answers, still limited, no 5xx', async (t) => {
  redis.signal('SIGSTOP');
  let sent: Awaited<ReturnType<typeof burst>>;
  try {
    sent = await burst('198.51.100.31', JWT_LIMIT + 5);
  } finally {
    redis.signal('SIGCONT');
  }
  t.is(count(sent.responses, 401), JWT_LIMIT, 'the in-memory insurance keeps the same limit');
  t.is(count(sent.responses, 429), 5);
  // Redis's one command per request (the bucket's script) times out after REDIS_COMMAND_TIMEOUT_MS;
  // a request that waited less did not ask Redis, one that waited twice as long waited on more
  // than that one command
  const ms = await gatewayMs(sent.requestIds);
  t.true(
    ms.every((one) => one >= REDIS_COMMAND_TIMEOUT_MS - 1),
    `each waited for the command timeout: ${ms.join(', ')} ms`,
  );
  t.true(
    ms.every((one) => one < 2 * REDIS_COMMAND_TIMEOUT_MS),
    `none waited a second timeout: ${ms.join(', ')} ms`,
  );
  t.log(`gateway ms: ${ms.join(', ')}`);
});

test.serial('a Redis that is killed: no 5xx, no hang, the insurance limits; health shows redis DOWN', async (t) => {
  await redis.kill();
  for (const client of ['198.51.100.32', '198.51.100.33']) {
    const { responses, requestIds } = await burst(client, JWT_LIMIT + 5);
    t.is(responses.filter((r) => r.status >= 500).length, 0);
    t.is(count(responses, 401), JWT_LIMIT);
    t.is(count(responses, 429), 5);
    t.true(responses.every((r) => r.headers.get('ratelimit-limit') === String(JWT_LIMIT)));
    // a connection known to be down is not asked (rejectIfRedisNotReady): no request waits for a
    // command timeout
    const ms = await gatewayMs(requestIds);
    t.true(
      ms.every((one) => one < REDIS_COMMAND_TIMEOUT_MS),
      `none waited for Redis: ${ms.join(', ')} ms`,
    );
    t.log(`gateway ms: ${ms.join(', ')}`);
  }
  t.is(await healthOfRedis(), 'DOWN');
});

test.serial('once Redis is back on its port, the gateway uses it again: new buckets appear in it', async (t) => {
  redis = await startRedisServer(redis.port);
  t.deepEqual(await redisKeys(redis), [], 'a fresh, empty Redis');
  const deadline = Date.now() + 10_000;
  let keys: string[] = [];
  for (let i = 0; keys.length === 0 && Date.now() < deadline; i++) {
    const { responses } = await burst(`198.51.100.${40 + i}`, 1);
    t.is(count(responses, 401), 1);
    await new Promise((r) => setTimeout(r, 200));
    keys = await redisKeys(redis);
  }
  t.true(
    keys.some((key) => key.startsWith(`${prefix}:rl:jwt:198.51.100.`)),
    'the gateway writes to the restarted Redis',
  );
  t.is(await healthOfRedis(), 'UP');
});

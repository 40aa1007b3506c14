/**
 * gateway/src/limits/token-bucket.ts on a redis-server of this test's own: the Redis bucket (one
 * script per request) and the in-memory one answer a run of requests alike, and a Redis that lost
 * its scripts (a restart, SCRIPT FLUSH) is still the one that answers, not the insurance. The
 * gateway's behaviour through HTTP is in edge-rate-limit and edge-redis-outage.
 */
import { once } from 'node:events';
import test from 'ava';
import type { Redis } from 'ioredis';
import { createLogger } from '@platform/kit/log/logger.ts';
import { connectRedis } from '../gateway/src/limits/redis-connection.ts';
import { TokenBucketMemory, TokenBucketRedis, TokenBucketRes } from '../gateway/src/limits/token-bucket.ts';
import { type RedisServer, redisClient, startRedisServer, uniquePrefix } from './helpers/redis.ts';

const CAPACITY = 5;
const options = { points: CAPACITY, duration: 60, keyPrefix: uniquePrefix('token-bucket') };
let server: RedisServer;
let redis: Redis;

test.before(async () => {
  server = await startRedisServer();
  redis = connectRedis(server.url, createLogger('token-bucket-test', 'silent'), 'token-bucket-test');
  if (redis.status !== 'ready') await once(redis, 'ready');
});

test.after.always(async () => {
  redis?.disconnect();
  await server?.stop();
});

/** `take` one token `count` times in turn: each answer, allowed or refused. */
async function run(limiter: { consume(key: string): Promise<TokenBucketRes> }, key: string, count: number): Promise<TokenBucketRes[]> {
  const answers: TokenBucketRes[] = [];
  for (let i = 0; i < count; i++) answers.push(await limiter.consume(key).catch((refusal: unknown) => refusal as TokenBucketRes));
  return answers;
}

test('Redis and memory give the same answers: N pass with N-1 … 0 left, then refusals until one token has refilled', async (t) => {
  const memory = new TokenBucketMemory(options);
  const inRedis = new TokenBucketRedis({ ...options, storeClient: redis, insuranceLimiter: new TokenBucketMemory(options) });
  for (const answers of [await run(inRedis, 'same', CAPACITY + 2), await run(memory, 'same', CAPACITY + 2)]) {
    t.true(answers.every((answer) => answer instanceof TokenBucketRes));
    t.deepEqual(
      answers.map((answer) => [answer.allowed, answer.remainingPoints]),
      [
        [true, 4],
        [true, 3],
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
        [false, 0],
      ],
    );
    t.is(answers[0]!.msBeforeNext, 0);
    // one token refills in 60 s / 5 = 12 s; the bucket is full 60 s after it was emptied
    for (const refused of answers.slice(CAPACITY)) {
      t.true(refused.msBeforeNext > 11_900 && refused.msBeforeNext <= 12_000, `msBeforeNext ${refused.msBeforeNext}`);
      t.true(refused.msUntilFull > 59_900 && refused.msUntilFull <= 60_000, `msUntilFull ${refused.msUntilFull}`);
    }
  }
  t.is(await redis.hget(`${options.keyPrefix}:same`, 't').then(Number).then(Math.floor), 0);
});

test('a Redis that lost the script (SCRIPT FLUSH) still answers from Redis, not from the insurance', async (t) => {
  const insurance = new TokenBucketMemory(options);
  const inRedis = new TokenBucketRedis({ ...options, storeClient: redis, insuranceLimiter: insurance });
  t.is((await inRedis.consume('flushed')).remainingPoints, CAPACITY - 1);
  const admin = redisClient(server.url);
  try {
    t.is(await admin.script('FLUSH'), 'OK');
  } finally {
    admin.disconnect();
  }
  t.is((await inRedis.consume('flushed')).remainingPoints, CAPACITY - 2, 'the bucket in Redis, which the insurance has never seen');
  t.is((await insurance.get('flushed')).remainingPoints, CAPACITY, 'the insurance took nothing');
});

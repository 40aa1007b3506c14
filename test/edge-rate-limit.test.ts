/**
 * Rate limits against a real Redis (docs/interface.md#limits: "Public paths 60 requests per minute
 * per IP, API-key paths 100, JWT paths 200, refill gradual"; docs/interface.md#limits "REDIS_URL set:
 * Redis-backed rate limiting (shared by all gateway replicas)"; docs/interface.md#rate-limit-body: "A 429 has the rate-limit body of
 * the interface, Retry-After, and every limited response carries RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset"; docs/interface.md#rate-limit-body: "Retry-After and RateLimit-Reset are whole seconds;
 * RateLimit-Limit is the tier's per-minute limit").
 *
 * Two gateway processes share the suite's Redis under a key prefix of their own, with low limits
 * (public 30, API key 20, JWT 10 per minute: a token back every 2, 3 and 6 seconds, so a burst is
 * over long before one comes back) and TRUST_PROXY=1, so that every test is a client address of its
 * own.
 */
import test, { type ExecutionContext } from 'ava';
import type { Platform } from '../scripts/lib/processes.ts';
import { adminSession } from './helpers/factories.ts';
import { api, type ApiResponse, platform } from './helpers/platform.ts';
import { keysUnder, redisClient, startGateway, uniquePrefix, untilRedisUp } from './helpers/redis.ts';

const LIMITS = { public: 30, apiKey: 20, jwt: 10 };
const prefix = uniquePrefix('edge-rl');
let one: Platform;
let two: Platform;
let memoryOnly: Platform; // no REDIS_URL: the same buckets in the gateway's memory

test.before(async () => {
  const env = {
    REDIS_KEY_PREFIX: prefix,
    TRUST_PROXY: '1',
    RATE_LIMIT_PUBLIC: String(LIMITS.public),
    RATE_LIMIT_API_KEY: String(LIMITS.apiKey),
    RATE_LIMIT_JWT: String(LIMITS.jwt),
  };
  [one, two, memoryOnly] = await Promise.all([
    startGateway(platform.env, env),
    startGateway(platform.env, env),
    startGateway(platform.env, { ...env, REDIS_URL: '' }),
  ]);
  await Promise.all([one, two].map((gateway) => untilRedisUp(gateway)));
  // Warm them up (from an address no test uses), so no burst below is slowed by a cold start.
  await Promise.all([one, two, memoryOnly].map((gateway) => api('GET', '/api/auth/me', { baseUrl: gateway.url, headers: { 'x-forwarded-for': '192.0.2.1' } })));
});

test.after.always(async () => {
  await Promise.all([one?.stop(), two?.stop(), memoryOnly?.stop()]);
});

interface From {
  client: string;
  gateway?: Platform;
  headers?: Record<string, string>;
  token?: string;
}

function from(method: string, path: string, { client, gateway = one, headers = {}, token }: From): Promise<ApiResponse> {
  return api(method, path, { baseUrl: gateway.url, token, headers: { 'x-forwarded-for': client, ...headers } });
}

/** `count` requests at once, to `options.gateway`, else alternating between the two Redis-backed gateways. */
function burst(count: number, path: string, options: From): Promise<ApiResponse[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => from('GET', path, { gateway: i % 2 === 0 ? one : two, ...options })));
}

const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status);
const limited = (responses: ApiResponse[]) => responses.filter((r) => r.status === 429).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function limitHeaders(t: ExecutionContext, res: ApiResponse, limit: number): void {
  t.is(res.headers.get('ratelimit-limit'), String(limit), `RateLimit-Limit on a ${res.status}`);
  t.regex(res.headers.get('ratelimit-remaining') ?? '', /^\d+$/, `RateLimit-Remaining on a ${res.status}`);
  t.regex(res.headers.get('ratelimit-reset') ?? '', /^\d+$/, `RateLimit-Reset on a ${res.status}: whole seconds`);
}

test('two gateway processes share one limit in Redis: exactly 20 of 30 API-key requests from one address pass across both', async (t) => {
  const client = '198.51.100.10';
  const started = performance.now();
  const responses = await burst(30, '/api/admin/edge-probe', { client, headers: { 'x-api-key': platform.apiKey } });
  // a token comes back every 3 s ("refill: gradual"): a burst that took longer (a loaded machine) earned them
  const refilled = Math.floor((performance.now() - started) / (60_000 / LIMITS.apiKey));
  t.is(responses.length - limited(responses), LIMITS.apiKey + refilled, `${statuses(responses).join(' ')} (${refilled} refilled)`);
  t.is(limited(responses), 10 - refilled);
  t.true(
    responses.every((r) => r.status === 404 || r.status === 429),
    statuses(responses).join(' '),
  );
  for (const res of responses) limitHeaders(t, res, LIMITS.apiKey);
  // The bucket lives in that Redis, under the gateways' prefix.
  const redis = redisClient(platform.env.REDIS_URL ?? '');
  try {
    t.deepEqual(await keysUnder(redis, `${prefix}:rl:api-key:${client}`), [`${prefix}:rl:api-key:${client}`]);
  } finally {
    redis.disconnect();
  }
});

test('the three tiers per path: public 30 (share-link public paths too), API key 20, JWT 10 per minute here (RateLimit-Limit)', async (t) => {
  const client = '198.51.100.11';
  for (const path of ['/api/health', '/actuator/health', '/api/dms-share-link/public/some-token']) {
    t.is((await from('GET', path, { client })).headers.get('ratelimit-limit'), String(LIMITS.public), path);
  }
  for (const path of ['/api/auth/login', '/api/session/active', '/api/logs/exceptions/x', '/api/admin/x']) {
    t.is((await from('GET', path, { client, headers: { 'x-api-key': platform.apiKey } })).headers.get('ratelimit-limit'), String(LIMITS.apiKey), path);
  }
  for (const path of ['/api/auth/me', '/api/branch/1', '/api/dms-share-link/1']) {
    t.is((await from('GET', path, { client })).headers.get('ratelimit-limit'), String(LIMITS.jwt), path);
  }
});

test('headers on every limited response, and the 429: Retry-After in whole seconds and the rate-limit body of docs/interface.md#rate-limit-body', async (t) => {
  const client = '198.51.100.12';
  const probe = { client, headers: { 'x-api-key': platform.apiKey } };
  const first = await from('GET', '/api/admin/edge-probe', probe);
  t.is(first.status, 404);
  limitHeaders(t, first, LIMITS.apiKey);
  t.is(first.headers.get('ratelimit-remaining'), String(LIMITS.apiKey - 1));
  t.is(first.headers.get('ratelimit-reset'), '3', 'one token out of a bucket that refills 20 a minute: full again in 3 s');
  const rest = await burst(LIMITS.apiKey - 1, '/api/admin/edge-probe', probe);
  t.is(limited(rest), 0);
  const remaining = rest.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
  t.deepEqual(
    remaining,
    Array.from({ length: LIMITS.apiKey - 1 }, (_, i) => i),
    'each request takes one token',
  );

  const refused = await from('GET', '/api/admin/edge-probe', probe);
  t.is(refused.status, 429);
  limitHeaders(t, refused, LIMITS.apiKey);
  t.is(refused.headers.get('ratelimit-remaining'), '0');
  const reset = Number(refused.headers.get('ratelimit-reset'));
  t.true(reset >= 58 && reset <= 60, `empty: full again in a minute (${reset})`);
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 3, `a token comes back every 3 s (Retry-After ${retryAfter})`);
  t.regex(refused.headers.get('content-type') ?? '', /application\/json/);
  // "status int 429, error Too Many Requests, message: states the maximum requests per minute
  // allowed, retryAfter: Seconds to wait (60)" — 60 as the contract says; Retry-After is the real wait.
  t.deepEqual(refused.body, {
    status: 429,
    error: 'Too Many Requests',
    message: 'Too many requests: at most 20 requests per minute are allowed from one address',
    retryAfter: 60,
  });
  const turkish = await from('GET', '/api/admin/edge-probe', { ...probe, headers: { ...probe.headers, 'accept-language': 'tr' } });
  t.is(turkish.body.message, 'Çok fazla istek: bir adresten dakikada en fazla 20 isteğe izin verilir');
});

test('"refill: gradual": a used-up bucket lets one more request through after 60/N seconds, not all N after a minute', async (t) => {
  const client = '198.51.100.13';
  await burst(LIMITS.public, '/api/health', { client });
  let refused: ApiResponse | undefined;
  for (let i = 0; i < 5 && refused?.status !== 429; i++) refused = await from('GET', '/api/health', { client });
  t.is(refused?.status, 429);
  t.regex(refused?.headers.get('retry-after') ?? '', /^[12]$/, 'a token every 60/30 = 2 seconds');
  await sleep(2000); // 60 s / 30 tokens: exactly one more token, whatever fraction of one was there
  const again = await Promise.all([from('GET', '/api/health', { client }), from('GET', '/api/health', { client, gateway: two })]);
  t.deepEqual(statuses(again).sort(), [200, 429], 'exactly one token has come back, for both gateways');
  t.is(again.find((r) => r.status === 200)?.headers.get('ratelimit-remaining'), '0');
});

test('filter order: a limited client never reaches JWT work — 429 even with a garbage token once the limit is used up', async (t) => {
  const client = '198.51.100.14';
  const garbage = await burst(LIMITS.jwt, '/api/auth/me', { client, token: 'garbage' });
  t.deepEqual(statuses(garbage), Array(LIMITS.jwt).fill(401));
  for (const res of garbage) limitHeaders(t, res, LIMITS.jwt);
  t.is((await from('GET', '/api/auth/me', { client, token: 'garbage' })).status, 429);
  const { token } = await adminSession();
  t.is((await from('GET', '/api/auth/me', { client, token })).status, 429, 'a valid token is not looked at either');
  t.is((await from('GET', '/api/auth/me', { client: '198.51.100.15', token })).status, 200, 'another address is not limited');
});

test('filter order: the API-key check comes before the limit, so wrong keys are refused (401) without using the tier up', async (t) => {
  const client = '198.51.100.16';
  const wrong = await burst(LIMITS.apiKey + 5, '/api/admin/edge-probe', { client, headers: { 'x-api-key': 'wrong' } });
  t.deepEqual(statuses(wrong), Array(LIMITS.apiKey + 5).fill(401));
  t.is(wrong[0]?.headers.get('ratelimit-limit'), null);
  const right = await from('GET', '/api/admin/edge-probe', { client, headers: { 'x-api-key': platform.apiKey } });
  t.is(right.status, 404);
  t.is(right.headers.get('ratelimit-remaining'), String(LIMITS.apiKey - 1));
});

test('"per IP": an IPv4-mapped address counts as its IPv4 address, an IPv6 address by its /64', async (t) => {
  const mapped = await Promise.all(
    Array.from({ length: LIMITS.jwt + 2 }, (_, i) => from('GET', '/api/auth/me', { client: i % 2 ? '198.51.100.17' : '::ffff:198.51.100.17' })),
  );
  t.is(limited(mapped), 2, statuses(mapped).join(' '));

  const sameNet = await Promise.all(
    Array.from({ length: LIMITS.jwt + 2 }, (_, i) => from('GET', '/api/auth/me', { client: `2001:db8:1:2::${(i + 1).toString(16)}` })),
  );
  t.is(limited(sameNet), 2, statuses(sameNet).join(' '));
  t.is((await from('GET', '/api/auth/me', { client: '2001:db8:1:3::1' })).status, 401, 'the next /64 has a bucket of its own');
});

test('without REDIS_URL the same token bucket runs in memory: the limit, then one more request per 60/N seconds; no redis in health', async (t) => {
  const client = '198.51.100.18';
  const all = await burst(LIMITS.public, '/api/health', { client, gateway: memoryOnly });
  t.is(limited(all), 0);
  const refused = await from('GET', '/api/health', { client, gateway: memoryOnly });
  t.is(refused.status, 429);
  t.is(refused.body.retryAfter, 60);
  await sleep(2000);
  const again = await Promise.all([from('GET', '/api/health', { client, gateway: memoryOnly }), from('GET', '/api/health', { client, gateway: memoryOnly })]);
  t.deepEqual(statuses(again).sort(), [200, 429]);
  const health = await from('GET', '/actuator/health', { client: '198.51.100.19', gateway: memoryOnly });
  t.is(health.body.components.redis, undefined, '"redis (when configured)"');
});

test('MANAGEMENT_PORT serves the health paths outside the chain: probes beyond the public limit all pass, nothing else is served', async (t) => {
  // Every kubelet probe of every gateway pod on a node comes from that node's address, which the
  // public tier would limit; the management port is for them (deploy/base/gateway.yaml).
  const managed = await startGateway(platform.env, { REDIS_KEY_PREFIX: prefix, TRUST_PROXY: '1', RATE_LIMIT_PUBLIC: '5', MANAGEMENT_PORT: '0' });
  try {
    await untilRedisUp(managed);
    const management = `http://${managed.metrics.gateway}`;
    const probes = await Promise.all(Array.from({ length: 20 }, (_, i) => api('GET', i % 2 ? '/api/health' : '/actuator/health', { baseUrl: management })));
    t.is(limited(probes), 0, 'no probe is limited');
    for (const probe of probes) t.is(probe.headers.get('ratelimit-limit'), null, 'no limiter on the management port');
    t.deepEqual(probes[1]?.body, { status: 'UP' });
    t.like(probes[0]?.body.components, { redis: { status: 'UP' } }, 'the same health document as on the public port');
    for (const path of ['/api/branch/1', '/api/session/active', '/api/auth/login', '/actuator/env']) {
      const res = await api(path === '/api/auth/login' ? 'POST' : 'GET', path, {
        baseUrl: management,
        apiKey: true,
        body: path === '/api/auth/login' ? {} : undefined,
      });
      t.is(res.status, 404, path);
      t.is(res.body.error_code, 'SVC-SYS-4001');
    }
    // The public port still limits the same paths from one address.
    const publicSide = await Promise.all(
      Array.from({ length: 8 }, () => api('GET', '/api/health', { baseUrl: managed.url, headers: { 'x-forwarded-for': '198.51.100.40' } })),
    );
    t.is(limited(publicSide), 3, 'public tier of 5: three of eight refused');
  } finally {
    await managed.stop();
  }
});

/**
 * Cross-origin rules (docs/interface.md#cors: "Allowed methods: GET, POST, PUT, DELETE, OPTIONS;
 * allowed headers: any; credentials allowed"; docs/interface.md#cors: "a preflight (OPTIONS with
 * Access-Control-Request-Method) from an allowed origin is answered by the gateway right after the
 * IP filter, before the API-key, rate-limit and JWT steps … Every response to an allowed origin,
 * errors included, carries Access-Control-Allow-Origin (that origin) and
 * Access-Control-Allow-Credentials: true, so a page can read a 401 or 409").
 */
import test from 'ava';
import type { Platform } from '../scripts/lib/processes.ts';
import { adminSession, createPartner, freshTenant } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { startGateway, uniquePrefix, untilRedisUp } from './helpers/redis.ts';

const ORIGIN = 'https://app.example.com';
const OTHER_ORIGIN = 'http://localhost:5173';
const UNLISTED = 'https://evil.example.net';
let gateway: Platform;
let clients = 0;
/** A client address of its own for each request group (TRUST_PROXY=1), so limits never mix. */
const newClient = () => `198.51.100.${++clients}`;

test.before(async () => {
  gateway = await startGateway(platform.env, {
    REDIS_KEY_PREFIX: uniquePrefix('edge-cors'),
    ALLOWED_ORIGINS: `${ORIGIN},${OTHER_ORIGIN}`,
    TRUST_PROXY: '1',
    RATE_LIMIT_JWT: '3',
  });
  await untilRedisUp(gateway);
});

test.after.always(async () => {
  await gateway?.stop();
});

function call(method: string, path: string, headers: Record<string, string>, options: { token?: string; body?: unknown; client?: string } = {}) {
  return api(method, path, {
    baseUrl: gateway.url,
    token: options.token,
    body: options.body,
    headers: { 'x-forwarded-for': options.client ?? newClient(), ...headers },
  });
}

const preflightHeaders = (origin: string) => ({
  origin,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'content-type,x-api-key,x-project-code',
});

test('a preflight from an allowed origin is answered 204 with the CORS headers, before the API key, rate limit and JWT steps', async (t) => {
  for (const path of ['/api/auth/login', '/api/branch/list', '/api/session/active', '/no/such/path']) {
    const res = await call('OPTIONS', path, preflightHeaders(ORIGIN));
    t.is(res.status, 204, path);
    t.is(res.text, '');
    t.is(res.headers.get('access-control-allow-origin'), ORIGIN);
    t.is(res.headers.get('access-control-allow-credentials'), 'true');
    t.is(res.headers.get('access-control-allow-methods'), 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    t.is(res.headers.get('access-control-allow-headers'), 'content-type,x-api-key,x-project-code', '"allowed headers: any": reflected');
    t.regex(res.headers.get('vary') ?? '', /\bOrigin\b/);
    t.is(res.headers.get('ratelimit-limit'), null, 'not counted by the rate limit');
  }
  // Each allowed origin gets itself back, never the other one.
  const other = await call('OPTIONS', '/api/branch/list', preflightHeaders(OTHER_ORIGIN));
  t.is(other.headers.get('access-control-allow-origin'), OTHER_ORIGIN);
});

test('a preflight from an unlisted origin gets no CORS headers (and is not answered as a preflight)', async (t) => {
  const res = await call('OPTIONS', '/api/branch/list', preflightHeaders(UNLISTED));
  t.not(res.status, 204);
  for (const header of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods', 'access-control-allow-headers']) {
    t.is(res.headers.get(header), null, header);
  }
  // An origin differing only in scheme, port or a trailing slash is another origin.
  for (const near of ['http://app.example.com', 'https://app.example.com:8443', 'https://app.example.com.evil.net']) {
    t.is((await call('OPTIONS', '/api/branch/list', preflightHeaders(near))).headers.get('access-control-allow-origin'), null, near);
  }
});

test('every response to an allowed origin carries Allow-Origin and Allow-Credentials: 200, 401, 404, 409, 429', async (t) => {
  const check = (res: Awaited<ReturnType<typeof call>>, status: number) => {
    t.is(res.status, status);
    t.is(res.headers.get('access-control-allow-origin'), ORIGIN, `${status}`);
    t.is(res.headers.get('access-control-allow-credentials'), 'true', `${status}`);
    t.regex(res.headers.get('access-control-expose-headers') ?? '', /RateLimit-Remaining.*Retry-After/, 'a page can read the limit headers');
  };
  const origin = { origin: ORIGIN };
  check(await call('GET', '/api/health', origin), 200);
  check(await call('GET', '/api/auth/me', origin), 401);
  check(await call('GET', '/api/admin/no-such-thing', { ...origin, 'x-api-key': platform.apiKey }), 404);

  const { token } = await adminSession();
  const partner = await createPartner(freshTenant());
  const stale = await call('PUT', `/api/business-partner/${partner.id}`, origin, {
    token,
    body: { version: partner.version + 1, partnerName: 'Stale' },
  });
  check(stale, 409);
  t.is(stale.body.error_code, 'SVC-SYS-4002');

  const client = newClient();
  for (let i = 0; i < 3; i++) await call('GET', '/api/auth/me', origin, { client });
  check(await call('GET', '/api/auth/me', origin, { client }), 429);
});

test('an actual request from an unlisted origin gets no CORS headers, only Vary: Origin', async (t) => {
  const res = await call('GET', '/api/health', { origin: UNLISTED });
  t.is(res.status, 200);
  t.is(res.headers.get('access-control-allow-origin'), null);
  t.is(res.headers.get('access-control-allow-credentials'), null);
  t.is(res.headers.get('access-control-expose-headers'), null);
  t.regex(res.headers.get('vary') ?? '', /\bOrigin\b/, 'a cache must not serve it to an allowed origin');
});

test('an OPTIONS without Access-Control-Request-Method is no preflight: it goes through the filter chain', async (t) => {
  const res = await call('OPTIONS', '/api/branch/list', { origin: ORIGIN });
  t.is(res.status, 401);
  t.is(res.headers.get('access-control-allow-origin'), ORIGIN);
});

test('an ALLOWED_ORIGINS entry that is not an exact origin makes the gateway refuse to start, naming it', async (t) => {
  const bad = ['https://app.example.com/', '*', 'app.example.com', 'https://app.example.com/path'];
  const errors = await Promise.all(bad.map((entry) => t.throwsAsync(startGateway(platform.env, { ALLOWED_ORIGINS: `${ORIGIN},${entry}` }))));
  bad.forEach((entry, i) => t.true(errors[i]?.message.includes(`ALLOWED_ORIGINS entry '${entry}' is not an origin`), errors[i]?.message));
});

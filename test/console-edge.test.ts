/**
 * The gateway's side of the console (docs/adr/0084-the-console-s-security-page-policy.md): its built files at /console/
 * with a strict CSP and caching by content, the resource manifest derived from the registry, and the
 * console's login, which takes the console's CSRF proof in place of the API key and nothing less.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parseSetCookie } from 'cookie';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';
import { consoleManifest } from '../gateway/src/console/manifest.ts';
import { registry } from '../gateway/src/registry.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { api, platform } from './helpers/platform.ts';

const DIST = join(ROOT_DIR, 'gateway/console/dist');
const origin = new URL(platform.url).origin;

/** The CSRF token a console page gets: the SVC_CONSOLE_CSRF cookie of GET /console/. */
async function consoleCsrf(): Promise<string> {
  const res = await api('GET', '/console/');
  const cookie = res.headers
    .getSetCookie()
    .map((line) => parseSetCookie(line))
    .find((c) => c.name === 'SVC_CONSOLE_CSRF');
  if (!cookie) throw new Error('GET /console/ set no SVC_CONSOLE_CSRF cookie');
  return cookie.value ?? '';
}

function consoleLogin(headers: Record<string, string>, password = platform.adminPassword) {
  return api('POST', '/api/auth/console-login', { headers, body: { userCode: platform.adminUser, password, languageCode: 'en' } });
}

test('GET /console/ is the app: its index, a strict CSP, no caching, and a CSRF cookie for its script (SameSite=Strict, not HttpOnly)', async (t) => {
  const res = await api('GET', '/console/');
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/html/);
  t.is(res.text, readFileSync(join(DIST, 'index.html'), 'utf8'));
  const csp = res.headers.get('content-security-policy') ?? '';
  t.true(
    csp.includes("default-src 'none'") && csp.includes("script-src 'self'") && csp.includes("style-src 'self'") && csp.includes("frame-ancestors 'none'"),
    csp,
  );
  t.false(csp.includes('unsafe-inline') || csp.includes('unsafe-eval') || csp.includes('https:'), csp);
  t.is(res.headers.get('cache-control'), 'no-store');
  t.is(res.headers.get('x-content-type-options'), 'nosniff');
  const cookie = parseSetCookie(res.headers.getSetCookie().find((line) => line.startsWith('SVC_CONSOLE_CSRF=')) ?? '');
  t.is(cookie.sameSite, 'strict');
  t.falsy(cookie.httpOnly);
  t.is(cookie.path, '/');
  t.regex(cookie.value ?? '', /^[\w-]{24}\.[\w-]{43}$/);
});

test('a page of the app (/console/branch/3, /console/partners/branch/3/edit) is the same index with its CSP, uncached; /console redirects to /console/', async (t) => {
  const index = await api('GET', '/console/');
  for (const path of ['/console/branch/3', '/console/partners/branch/3/edit']) {
    const page = await api('GET', path);
    t.is(page.status, 200, path);
    t.is(page.text, readFileSync(join(DIST, 'index.html'), 'utf8'), path);
    t.is(page.headers.get('content-security-policy'), index.headers.get('content-security-policy'), path);
    t.is(page.headers.get('cache-control'), 'no-store', path);
  }
  const bare = await api('GET', '/console');
  t.is(bare.status, 308);
  t.is(bare.headers.get('location'), '/console/');
});

test('a page that holds a valid CSRF cookie keeps it; a forged one is replaced', async (t) => {
  const token = await consoleCsrf();
  const kept = await api('GET', '/console/', { headers: { cookie: `SVC_CONSOLE_CSRF=${token}` } });
  t.deepEqual(kept.headers.getSetCookie(), []);
  const forged = await api('GET', '/console/', { headers: { cookie: `SVC_CONSOLE_CSRF=${token.split('.')[0]}.${'A'.repeat(43)}` } });
  t.is(forged.headers.getSetCookie().length, 1);
});

test('hashed assets are immutable, compressed as the client accepts, and revalidated by ETag; a missing one is 404', async (t) => {
  const assets = readdirSync(join(DIST, 'assets')).filter((name) => name.endsWith('.js'));
  t.true(assets.length > 0);
  const name = assets[0] ?? '';
  const bytes = readFileSync(join(DIST, 'assets', name));
  const br = await fetch(`${platform.url}/console/assets/${name}`, { headers: { 'accept-encoding': 'br, gzip' } });
  t.is(br.status, 200);
  t.is(br.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.regex(br.headers.get('content-type') ?? '', /^text\/javascript/);
  // fetch decodes what it can; read the raw bytes through a request that accepts only one coding at a time
  const raw = await api('GET', `/console/assets/${name}`, { headers: { 'accept-encoding': 'identity' } });
  t.is(raw.text, bytes.toString('utf8'));
  for (const coding of ['br', 'gzip'] as const) {
    const res = await rawGet(`/console/assets/${name}`, { 'accept-encoding': coding });
    t.is(res.headers['content-encoding'], coding);
    t.deepEqual(coding === 'br' ? brotliDecompressSync(res.body) : gunzipSync(res.body), bytes);
  }
  const etag = br.headers.get('etag') ?? '';
  const again = await api('GET', `/console/assets/${name}`, { headers: { 'if-none-match': etag } });
  t.is(again.status, 304);
  assertErrorBody(t, await api('GET', '/console/assets/index-00000000.js'), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await api('POST', '/console/', { body: {} }), 404, 'SVC-SYS-4001');
});

test('the console is served before the rate limiter: its answers carry no RateLimit headers, a public API path does', async (t) => {
  // decisions.md §6: "every limited response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset"
  const health = await api('GET', '/api/health');
  t.truthy(health.headers.get('ratelimit-limit'));
  for (const path of ['/console/', '/console/resources.json', '/console/branch']) {
    const res = await api('GET', path);
    t.is(res.status, 200, path);
    t.is(res.headers.get('ratelimit-limit'), null, path);
  }
});

test('GET /console/resources.json is every resource of the registry, as consoleManifest derives it', async (t) => {
  const res = await api('GET', '/console/resources.json');
  t.is(res.status, 200);
  t.deepEqual(res.body, JSON.parse(JSON.stringify(consoleManifest(registry, { captchaSiteKey: platform.env.RECAPTCHA_SITE_KEY || undefined }))));
  t.deepEqual(
    res.body.resources.map((resource: { path: string }) => resource.path),
    registry.map((resource) => resource.path),
  );
  const branch = res.body.resources.find((resource: { path: string }) => resource.path === 'branch');
  t.like(branch, { menu: { area: 'partners', label: { en: 'Branches', tr: 'Şubeler' } }, key: 'id', display: 'branchName' });
  t.deepEqual(
    branch.fields.find((field: { name: string }) => field.name === 'businessPartnerId'),
    {
      name: 'businessPartnerId',
      kind: 'long',
      label: { en: 'Business partner', tr: 'İş ortağı' },
      required: true,
      references: { resource: 'business-partner', key: 'id' },
      sortable: true,
      range: true,
    },
  );
  const user = res.body.resources.find((resource: { path: string }) => resource.path === 'user-info');
  t.true(user.fields.some((field: { name: string; writeOnly?: boolean }) => field.name === 'password' && field.writeOnly));
});

test('the console login needs its CSRF proof: token in cookie and header alike, signed, from this origin', async (t) => {
  const token = await consoleCsrf();
  const genuine = { cookie: `SVC_CONSOLE_CSRF=${token}`, 'x-csrf-token': token, origin };
  const refusals: [string, Record<string, string>][] = [
    ['no proof', {}],
    ['no header', { cookie: genuine.cookie, origin }],
    ['no cookie', { 'x-csrf-token': token, origin }],
    ['header and cookie differ', { ...genuine, 'x-csrf-token': `${token}x` }],
    ['a token the gateway did not sign', { ...genuine, cookie: 'SVC_CONSOLE_CSRF=abc.def', 'x-csrf-token': 'abc.def' }],
    ['another origin', { ...genuine, origin: 'https://evil.example' }],
    ['no origin', { cookie: genuine.cookie, 'x-csrf-token': token }],
    ['a cross-site fetch', { ...genuine, 'sec-fetch-site': 'cross-site' }],
    ['a POST without Origin, even one marked same-origin', { cookie: genuine.cookie, 'x-csrf-token': token, 'sec-fetch-site': 'same-origin' }],
  ];
  for (const [what, headers] of refusals) {
    const res = await consoleLogin(headers);
    t.is(res.status, 401, what);
    t.is(res.body.error_code, 'SVC-SYS-1004', what);
    t.deepEqual(res.headers.getSetCookie(), [], what);
  }
  const res = await consoleLogin({ ...genuine, 'sec-fetch-site': 'same-origin' });
  t.is(res.status, 200, res.text);
  t.like(res.body, { success: true, userCode: platform.adminUser, superUser: true });
  const session = res.headers
    .getSetCookie()
    .map((line) => parseSetCookie(line))
    .find((c) => c.name === 'SVC_SESSION');
  t.truthy(session?.httpOnly);
  const me = await api('GET', '/api/auth/me', { headers: { cookie: `SVC_SESSION=${session?.value}` } });
  t.is(me.status, 200);
  t.is(me.body.userCode, platform.adminUser);
});

test('the console login is the login: a wrong password is 401 SVC-SYS-1002, and the API-key login is unchanged', async (t) => {
  const token = await consoleCsrf();
  const wrong = await consoleLogin({ cookie: `SVC_CONSOLE_CSRF=${token}`, 'x-csrf-token': token, origin }, 'not-the-password');
  assertErrorBody(t, wrong, 401, 'SVC-SYS-1002');
  const withoutKey = await api('POST', '/api/auth/login', { headers: { cookie: `SVC_CONSOLE_CSRF=${token}`, 'x-csrf-token': token, origin }, body: {} });
  assertErrorBody(t, withoutKey, 401, 'SVC-SYS-1004');
});

/** A GET whose body is read as sent (node:http does not decode it). */
async function rawGet(path: string, headers: Record<string, string>): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    request(`${platform.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * The IP filter, step 1 of the filter chain (docs/interface.md#filter-chain: "IP filter: allow/deny lists
 * with CIDR support, switchable by configuration, disabled by default in development; a blocked IP
 * gets 403"; docs/interface.md#configuration "IP_ALLOW, IP_DENY (comma lists of IPs or CIDRs, v4 and v6; deny
 * wins), TRUST_PROXY (how many proxy hops may set X-Forwarded-For; default 0: the socket address
 * counts)"). Each test runs against gateways of its own, started beside the suite's platform.
 */
import test from 'ava';
import type { Platform } from '../scripts/lib/processes.ts';
import { api, platform } from './helpers/platform.ts';
import { startGateway, uniquePrefix } from './helpers/redis.ts';

const ORIGIN = 'https://app.example.com';
let proxied: Platform; // TRUST_PROXY=2: the client is two X-Forwarded-For hops back
let direct: Platform; // TRUST_PROXY=0: the socket address counts
let off: Platform; // IP_FILTER_ENABLED=false

test.before(async () => {
  const common = { REDIS_KEY_PREFIX: uniquePrefix('edge-ip'), IP_FILTER_ENABLED: 'true' };
  [proxied, direct, off] = await Promise.all([
    startGateway(platform.env, {
      ...common,
      TRUST_PROXY: '2',
      IP_ALLOW: '203.0.113.0/24, 2001:db8::/32',
      IP_DENY: '203.0.113.66,2001:db8:bad::/48',
      ALLOWED_ORIGINS: ORIGIN,
    }),
    startGateway(platform.env, { ...common, TRUST_PROXY: '0', IP_DENY: '127.0.0.1' }),
    startGateway(platform.env, { ...common, IP_FILTER_ENABLED: 'false', TRUST_PROXY: '0', IP_DENY: '127.0.0.1' }),
  ]);
});

test.after.always(async () => {
  await Promise.all([proxied?.stop(), direct?.stop(), off?.stop()]);
});

/** A request as if it came from `client` through the two trusted proxies. */
function from(client: string, path = '/api/health', headers: Record<string, string> = {}) {
  return api('GET', path, { baseUrl: proxied.url, headers: { 'x-forwarded-for': `${client}, 10.0.0.2`, ...headers } });
}

test('"a blocked IP gets 403": a denied address gets 403 {status: "ERROR", message} without error_code (docs/interface.md#errors)', async (t) => {
  const res = await from('203.0.113.66');
  t.is(res.status, 403);
  t.deepEqual(Object.keys(res.body).sort(), ['message', 'status']);
  t.is(res.body.status, 'ERROR');
  t.regex(res.body.message, /not allowed/);
  t.is((await from('203.0.113.66', '/api/health', { 'accept-language': 'tr' })).body.message, 'Adresinizden erişime izin verilmiyor');
});

test('"deny wins": an address in an allowed CIDR and on the deny list is refused; its neighbours pass', async (t) => {
  t.is((await from('203.0.113.66')).status, 403);
  t.is((await from('203.0.113.65')).status, 200);
  t.is((await from('203.0.113.255')).status, 200);
});

test('a non-empty allow list admits only its members, v4 and v6', async (t) => {
  t.is((await from('198.51.100.1')).status, 403);
  t.is((await from('2001:db8:1::7')).status, 200);
  t.is((await from('2001:db9::7')).status, 403);
  t.is((await from('2001:db8:bad::1')).status, 403, 'an IPv6 CIDR on the deny list');
  t.is((await from('2001:db8:bae::1')).status, 200);
});

test('an IPv4-mapped IPv6 address (::ffff:a.b.c.d) is matched as IPv4, in either spelling', async (t) => {
  t.is((await from('::ffff:203.0.113.5')).status, 200);
  t.is((await from('::ffff:203.0.113.66')).status, 403);
  t.is((await from('::ffff:cb00:7142')).status, 403, '::ffff:cb00:7142 is 203.0.113.66');
  t.is((await from('::ffff:198.51.100.1')).status, 403, 'not on the allow list');
});

test('TRUST_PROXY=2: the client is the address two hops back; what the client wrote further left is ignored', async (t) => {
  // proxy 2 (10.0.0.2) and the socket (proxy 1) are trusted; the next address is the client.
  t.is((await api('GET', '/api/health', { baseUrl: proxied.url, headers: { 'x-forwarded-for': '203.0.113.66, 10.0.0.2' } })).status, 403);
  // A client that prepends an allowed address of its own is still judged by its real address…
  const spoofed = await api('GET', '/api/health', { baseUrl: proxied.url, headers: { 'x-forwarded-for': '203.0.113.5, 198.51.100.9, 10.0.0.2' } });
  t.is(spoofed.status, 403);
  // …and a denied address written beyond the trusted hops does not block an allowed client.
  const prepended = await api('GET', '/api/health', { baseUrl: proxied.url, headers: { 'x-forwarded-for': '203.0.113.66, 203.0.113.5, 10.0.0.2' } });
  t.is(prepended.status, 200);
});

test('TRUST_PROXY=0: the socket address counts — 127.0.0.1 (seen as ::ffff:127.0.0.1) is denied whatever X-Forwarded-For says; ::1 is not', async (t) => {
  const v4 = await api('GET', '/api/health', { baseUrl: direct.url, headers: { 'x-forwarded-for': '198.51.100.1' } });
  t.is(v4.status, 403);
  const v6Url = direct.url.replace('127.0.0.1', '[::1]');
  t.is((await api('GET', '/api/health', { baseUrl: v6Url })).status, 200);
});

test('IP_FILTER_ENABLED=false: the lists are not applied ("switchable by configuration")', async (t) => {
  t.is((await api('GET', '/api/health', { baseUrl: off.url })).status, 200);
});

test('filter order: a blocked IP never reaches the API-key or JWT step (403, not 401)', async (t) => {
  const apiKeyPath = await from('203.0.113.66', '/api/session/active');
  t.is(apiKeyPath.status, 403);
  t.is(apiKeyPath.body.error_code, undefined);
  const jwtPath = await from('203.0.113.66', '/api/branch/1', { authorization: 'Bearer garbage' });
  t.is(jwtPath.status, 403);
  t.is(jwtPath.headers.get('ratelimit-limit'), null, 'nor the rate limit');
  // The same requests from an allowed address do reach them.
  t.is((await from('203.0.113.7', '/api/session/active')).status, 401);
  t.is((await from('203.0.113.7', '/api/branch/1', { authorization: 'Bearer garbage' })).status, 401);
});

test('filter order: the IP filter runs before the CORS preflight; its 403 still carries the CORS headers of an allowed origin', async (t) => {
  const preflight = await api('OPTIONS', '/api/branch/list', {
    baseUrl: proxied.url,
    headers: { 'x-forwarded-for': '203.0.113.66, 10.0.0.2', origin: ORIGIN, 'access-control-request-method': 'POST' },
  });
  t.is(preflight.status, 403);
  t.is(preflight.headers.get('access-control-allow-methods'), null);
  const blocked = await from('203.0.113.66', '/api/health', { origin: ORIGIN });
  t.is(blocked.status, 403);
  t.is(blocked.headers.get('access-control-allow-origin'), ORIGIN);
  t.is(blocked.headers.get('access-control-allow-credentials'), 'true');
  const allowed = await api('OPTIONS', '/api/branch/list', {
    baseUrl: proxied.url,
    headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.2', origin: ORIGIN, 'access-control-request-method': 'POST' },
  });
  t.is(allowed.status, 204);
});

test('an entry of IP_ALLOW or IP_DENY that is neither an IP nor a CIDR makes the gateway refuse to start, naming it', async (t) => {
  const cases = [
    ['IP_ALLOW', '10.0.0.0/8, 10.0.0.300', '10.0.0.300'],
    ['IP_DENY', '2001:db8::/129', '2001:db8::/129'],
    ['IP_DENY', 'example.com', 'example.com'],
  ] as const;
  const errors = await Promise.all(cases.map(([name, value]) => t.throwsAsync(startGateway(platform.env, { [name]: value }))));
  cases.forEach(([name, , bad], i) => t.true(errors[i]?.message.includes(`${name} entry '${bad}' is not an IP address or CIDR`), errors[i]?.message));
});

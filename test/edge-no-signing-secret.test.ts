/**
 * An edge without the signing secret (docs/adr/0138-an-edge-without-the-signing-secret.md): tokens
 * are HS512, so whoever can verify one can mint one, and only the services hold JWT_SECRET. The
 * gateway is handed neither it nor a key derived from it (its environment as the launcher gives it,
 * its configuration, its manifests); it hands each token on, and the services verify it. Its own
 * calls carry a credential of its own that acts as no user and opens only those calls
 * (docs/adr/0139-the-gateway-s-own-credentials.md). The answers to forged, expired and malformed
 * tokens stay 401 SVC-SYS-1001 (docs/interface.md#errors: "session or token missing, invalid, expired
 * or revoked"), in the order docs/adr/0038-where-a-token-s-session-is-checked.md gives.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { GatewayCallKey } from '@platform/kit/auth/gateway-call-key.ts';
import { BranchServiceClient } from '@platform/kit/gen/platform/bpm/v1/branch.ts';
import { AuthServiceClient } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { SessionServiceClient } from '@platform/kit/gen/platform/core/v1/session.ts';
import { UserInfoServiceClient } from '@platform/kit/gen/platform/core/v1/user_info.ts';
import { loadGatewayConfig } from '../gateway/src/config.ts';
import { childEnv } from '../scripts/lib/child-env.ts';
import type { Platform } from '../scripts/lib/processes.ts';
import { GATEWAY, LAYERS } from './helpers/deploy-layout.ts';
import { app } from './helpers/deploy-objects.ts';
import { render } from './helpers/deploy-render.ts';
import { createAccount, createUser, login } from './helpers/factories.ts';
import { api, platform, type ApiResponse } from './helpers/platform.ts';
import { startGateway, uniquePrefix } from './helpers/redis.ts';
import { claimsOf, otherKeyThan, sign } from './helpers/tokens.ts';

const JWT_SECRET = platform.jwtSecret;

/** Every string a value holds, however deep. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

test("the gateway's environment, as the launcher gives it, holds no JWT_SECRET, and its configuration nothing that follows from it", (t) => {
  const env = childEnv('gateway', platform.env);
  t.false('JWT_SECRET' in env, 'the launcher withholds JWT_SECRET from the gateway');
  t.false(
    Object.values(env).some((value) => value?.includes(JWT_SECRET)),
    'no variable carries its value',
  );
  const config = loadGatewayConfig(env);
  t.false(stringsOf(config).some((value) => value.includes(JWT_SECRET)));
  // Nothing in the configuration follows from JWT_SECRET: given one anyway, or another one, the
  // gateway reads the very same configuration (so no key is derived from it).
  const given = loadGatewayConfig({ ...env, JWT_SECRET });
  const other = loadGatewayConfig({ ...env, JWT_SECRET: 'f'.repeat(64) });
  t.deepEqual(given, config);
  t.deepEqual(other, config);
  t.false('jwtSecret' in config);
  // its own secrets are secrets apart
  for (const name of ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET']) {
    t.truthy(env[name], `${name} is the gateway's`);
    t.not(env[name], JWT_SECRET, name);
  }
  // each process gets the secrets it uses: bpm-svc neither the gateway's call key nor its file-port key
  const bpm = childEnv('bpm-svc', platform.env);
  t.true('JWT_SECRET' in bpm);
  for (const name of ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET']) t.false(name in bpm, `bpm-svc: no ${name}`);
});

for (const layer of LAYERS) {
  test(`${layer}: the gateway's manifest reads no JWT_SECRET, and no Secret or ConfigMap it takes whole holds one`, (t) => {
    const rendered = render(layer);
    const container = app(rendered.deployment(GATEWAY));
    const entries = container.env ?? [];
    t.false(
      entries.some((entry) => entry.name === 'JWT_SECRET' || entry.valueFrom?.secretKeyRef?.key === 'JWT_SECRET'),
      'no variable of the gateway is, or is read from, JWT_SECRET',
    );
    t.false(
      stringsOf(entries.map((entry) => entry.value)).some((value) => value.includes('JWT_SECRET')),
      'no value names it',
    );
    for (const source of container.envFrom ?? []) {
      t.is(source.secretRef, undefined, 'no Secret taken whole');
      t.false('JWT_SECRET' in (rendered.config().data ?? {}), 'the ConfigMap it takes whole has no JWT_SECRET');
    }
    const keys = entries.flatMap((entry) => (entry.valueFrom?.secretKeyRef ? [entry.valueFrom.secretKeyRef.key] : []));
    for (const name of ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET']) t.true(keys.includes(name), `reads ${name}`);
  });
}

let edge: Platform;

test.before(async () => {
  const { JWT_SECRET: _withheld, ...env } = platform.env;
  edge = await startGateway(env, { REDIS_KEY_PREFIX: uniquePrefix('edge-no-signing-secret') });
});

test.after.always(async () => {
  await edge?.stop();
});

test('a gateway started without any JWT_SECRET serves logins, JWT routes and the operator paths', async (t) => {
  const environ = readFileSync(`/proc/${edge.pids.gateway}/environ`, 'utf8').split('\0');
  t.false(
    environ.some((entry) => entry.startsWith('JWT_SECRET=')),
    'the process has no JWT_SECRET',
  );
  t.false(environ.some((entry) => entry.includes(JWT_SECRET)));
  const baseUrl = edge.url;
  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const loggedIn = await api('POST', '/api/auth/login', { baseUrl, apiKey: true, body: { userCode: user.userCode, password, languageCode: 'en' } });
  t.is(loggedIn.status, 200, loggedIn.text);
  const token =
    loggedIn.headers
      .getSetCookie()
      .join(';')
      .match(/SVC_SESSION=([^;]+)/)?.[1] ?? '';
  t.regex(token, /^eyJ/);
  // the cookie, then the bearer
  const byCookie = await api('GET', '/api/auth/me', { baseUrl, headers: { cookie: `SVC_SESSION=${token}` } });
  t.is(byCookie.status, 200);
  t.is(byCookie.body.userCode, user.userCode);
  t.is((await api('GET', '/api/auth/me', { baseUrl, token })).status, 200);
  // a record route without the role for it: bpm-svc's own answer
  t.is((await api('GET', '/api/branch/999999999', { baseUrl, token })).status, 403);
  // answers of the gateway's own, once core-svc found the token live
  t.is((await api('GET', '/api/no-such-thing/1', { baseUrl, token })).status, 404);
  // the operator paths, under the gateway's own credential once the API key is checked
  const sid = String(claimsOf(token).sid);
  const session = await api('GET', `/api/session/${sid}`, { baseUrl, apiKey: true });
  t.is(session.status, 200, session.text);
  t.is(session.body.userCode, user.userCode);
  // logout ends the token there too
  t.is((await api('POST', '/api/auth/logout', { baseUrl, token })).status, 204);
  const after = await api('GET', '/api/auth/me', { baseUrl, token });
  t.is(after.status, 401);
  t.is(after.body.error_code, 'SVC-SYS-1001');
});

test('the gateway without JWT_SECRET answers forged, expired and malformed tokens 401 SVC-SYS-1001, wherever the answer would come from', async (t) => {
  const baseUrl = edge.url;
  const { token } = await login(platform.adminUser, platform.adminPassword);
  const claims = claimsOf(token);
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'HS512', typ: 'JWT' };
  const candidates: [string, string][] = [
    ['garbage', 'garbage'],
    ['two parts', token.split('.').slice(0, 2).join('.')],
    ['a payload that is not JSON', `${token.split('.')[0]}.bm90IGpzb24.${token.split('.')[2]}`],
    ['signed with another key', sign(header, claims, 'a'.repeat(64), 'sha512')],
    ['a super user claimed under another key', sign(header, { ...claims, superUser: true }, otherKeyThan(JWT_SECRET), 'sha512')],
    ['alg none', `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${token.split('.')[1]}.`],
    ['HS256 with the secret', sign({ alg: 'HS256', typ: 'JWT' }, claims, JWT_SECRET, 'sha256')],
    ['expired', sign(header, { ...claims, iat: now - 7200, exp: now - 3600 }, JWT_SECRET, 'sha512')],
  ];
  const requests: [string, (token: string) => Promise<ApiResponse>][] = [
    ['me (core-svc)', (candidate) => api('GET', '/api/auth/me', { baseUrl, token: candidate })],
    ['a record (bpm-svc)', (candidate) => api('GET', '/api/branch/1', { baseUrl, token: candidate })],
    ['an unknown path (the gateway)', (candidate) => api('GET', '/api/no-such-thing/1', { baseUrl, token: candidate })],
    [
      'malformed JSON (the gateway)',
      (candidate) => api('POST', '/api/branch', { baseUrl, token: candidate, raw: '{"crProcessId":', headers: { 'content-type': 'application/json' } }),
    ],
  ];
  for (const [what, candidate] of candidates) {
    for (const [where, send] of requests) {
      const res = await send(candidate);
      t.is(res.status, 401, `${what}, ${where}`);
      t.is(res.body.error_code, 'SVC-SYS-1001', `${what}, ${where}`);
    }
  }
  // the control: the token itself, and its claims signed again with the services' key
  t.is((await api('GET', '/api/auth/me', { baseUrl, token })).status, 200);
  t.is((await api('GET', '/api/auth/me', { baseUrl, token: sign(header, claims, JWT_SECRET, 'sha512') })).status, 200);
});

test("a forged token naming another user's session does not keep that session seen; its own token does", async (t) => {
  const { user, password } = await createUser([(await createAccount()).accountNo]);
  const victim = await login(user.userCode, password);
  const sid = String(claimsOf(victim.token).sid);
  const lastSeen = async () => (await api('GET', `/api/session/${sid}`, { apiKey: true })).body.lastSeenAt as string;
  const atLogin = await lastSeen();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const forged = sign({ alg: 'HS512', typ: 'JWT' }, claimsOf(victim.token), 'b'.repeat(64), 'sha512');
  for (const baseUrl of [platform.url, edge.url]) t.is((await api('GET', '/api/auth/me', { baseUrl, token: forged })).status, 401);
  // several flushes of both gateways (SESSION_SEEN_FLUSH_MS=200 in the suite)
  await new Promise((resolve) => setTimeout(resolve, 800));
  t.is(await lastSeen(), atLogin, 'the forged token moved nothing');
  t.is((await api('GET', '/api/auth/me', { token: victim.token })).status, 200);
  let seen = atLogin;
  for (let i = 0; i < 50 && seen === atLogin; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await lastSeen();
  }
  t.true(Date.parse(seen) > Date.parse(atLogin), 'the real token moved lastSeenAt');
});

function bearer(token: string): Metadata {
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

/** The gRPC status a unary call ends with (OK as 0). */
function outcome(call: (done: (error: ServiceError | null) => void) => void): Promise<number> {
  return new Promise((resolve) => call((error) => resolve(error?.code ?? status.OK)));
}

test("the gateway's own credential opens its own calls alone: never a user's call, nor the services' internal credential's", async (t) => {
  const gateway = bearer(new GatewayCallKey(platform.env.GATEWAY_CALL_KEY ?? '').credential);
  const insecure = credentials.createInsecure();
  const sessions = new SessionServiceClient(platform.grpc.core, insecure);
  const auth = new AuthServiceClient(platform.grpc.core, insecure);
  const users = new UserInfoServiceClient(platform.grpc.core, insecure);
  const branches = new BranchServiceClient(platform.grpc.bpm, insecure);
  try {
    const { token } = await login(platform.adminUser, platform.adminPassword);
    // its own: the session check, an operator read
    t.is(await outcome((done) => sessions.checkSession({ token }, gateway, done)), status.OK);
    t.is(await outcome((done) => sessions.getSessionStats({}, gateway, done)), status.OK);
    // nothing else, in core-svc or elsewhere: 401 SVC-SYS-1001
    t.is(await outcome((done) => auth.me({}, gateway, done)), status.UNAUTHENTICATED, 'me');
    t.is(await outcome((done) => auth.switchAccount({ accountNo: 'DEFAULT' }, gateway, done)), status.UNAUTHENTICATED, 'switch-account');
    t.is(await outcome((done) => users.listUserInfos({}, gateway, done)), status.UNAUTHENTICATED, 'user-info list');
    t.is(await outcome((done) => branches.getBranch({ id: 1 }, gateway, done)), status.UNAUTHENTICATED, 'bpm-svc');
    // a credential under another key opens nothing
    const other = bearer(new GatewayCallKey('x'.repeat(64)).credential);
    t.is(await outcome((done) => sessions.checkSession({ token }, other, done)), status.UNAUTHENTICATED);
  } finally {
    for (const client of [sessions, auth, users, branches]) client.close();
  }
});

/**
 * Prometheus metrics (docs/adr/0045-metrics-prom-client-one-registry.md): the gateway serves /metrics on its management
 * port only, each service on its metrics port; every scrape below is taken before and after
 * traffic, and the series must move with it, by exactly this file's requests.
 *
 * A platform of this file's own (a gateway with its management port, TRUST_PROXY=1 so each check is
 * a client address of its own, a public tier of 3 per minute, and its own three services on the
 * suite's database), so no other file's traffic moves the series counted here; serial, so neither
 * does another test of this file.
 */
import test from 'ava';
import { type Platform, startPlatform } from '../scripts/lib/processes.ts';
import { adminSession, createAccount, sessionOf, unique } from './helpers/factories.ts';
import { upload } from './helpers/files.ts';
import { type Metrics, scrape } from './helpers/metrics.ts';
import { api, platform } from './helpers/platform.ts';
import { uniquePrefix, untilRedisUp } from './helpers/redis.ts';
import { without } from './helpers/env-without.ts';
import { suiteLog } from './helpers/suite-log.ts';

let gateway: Platform;
let management: string;

test.before(async () => {
  gateway = await startPlatform({
    env: {
      ...without(platform.env, 'GATEWAY_PORT', 'CORE_GRPC_ADDR', 'BPM_GRPC_ADDR', 'DMS_GRPC_ADDR', 'DMS_HTTP_ADDR'),
      REDIS_KEY_PREFIX: uniquePrefix('metrics'),
      TRUST_PROXY: '1',
      RATE_LIMIT_PUBLIC: '3',
      MANAGEMENT_PORT: '0',
    },
    ports: 'free',
    log: suiteLog(),
  });
  management = `http://${gateway.metrics.gateway}`;
  await untilRedisUp(gateway);
});

test.after.always(async () => {
  await gateway?.stop();
});

const from = (client: string) => ({ baseUrl: gateway.url, headers: { 'x-forwarded-for': client } });

/** The process figures and the event-loop lag every /metrics serves. */
function assertProcessFigures(t: { true(value: boolean, message?: string): void }, metrics: Metrics, who: string): void {
  for (const name of [
    'process_cpu_user_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_heap_size_used_bytes',
    'nodejs_eventloop_lag_seconds',
    'nodejs_eventloop_lag_p99_seconds',
  ]) {
    t.true(metrics.has(name), `${who} serves ${name}`);
  }
}

test.serial('the public port has no /metrics: 404 SVC-SYS-4001 even with a session, 401 without', async (t) => {
  const { token } = await adminSession();
  const res = await api('GET', '/metrics', { ...from('198.51.100.70'), token });
  t.is(res.status, 404);
  t.is(res.body.error_code, 'SVC-SYS-4001');
  t.false(res.text.includes('process_cpu'));
  t.is((await api('GET', '/metrics', from('198.51.100.70'))).status, 401, 'not a public path');
});

test.serial(
  "the gateway's management port serves /metrics: HTTP requests by route template and status, gRPC client calls by method and code (the session check among them) and process figures move with traffic",
  async (t) => {
    const before = await scrape(management);
    const client = '198.51.100.71';
    const login = await api('POST', '/api/auth/login', {
      ...from(client),
      apiKey: true,
      body: { userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en' },
    });
    t.is(login.status, 200, login.text);
    const token = sessionOf(login).token;
    const me = await api('GET', '/api/auth/me', { ...from(client), token });
    t.is(me.status, 200, me.text);
    const missing = await api('GET', '/api/business-partner/999999999', { ...from(client), token });
    t.is(missing.status, 404, missing.text);
    // a path no route takes, holding something that looks like a secret
    const secret = `tok${unique()}`;
    t.is((await api('GET', `/api/no-such-thing/${secret}`, { ...from(client), token })).status, 404);
    const after = await scrape(management);

    const http = (labels: Record<string, string>) =>
      after.sum('http_request_duration_seconds_count', labels) - before.sum('http_request_duration_seconds_count', labels);
    t.is(http({ method: 'POST', route: '/api/auth/login', status: '200' }), 1, 'the login, by its route template');
    t.is(http({ method: 'GET', route: '/api/auth/me', status: '200' }), 1);
    t.is(http({ method: 'GET', route: '/api/business-partner/:key', status: '404' }), 1, 'a record path is counted by its template, not its id');
    t.true(http({ method: 'GET', route: 'unmatched', status: '404' }) >= 1, 'a path no route took is "unmatched"');
    const labelValues = after.samples.flatMap((sample) => Object.values(sample.labels));
    t.false(
      labelValues.some((value) => value.includes(secret)),
      'no raw path in any label',
    );
    t.false(
      labelValues.some((value) => value.includes('999999999')),
      'no id in any label',
    );
    t.true(after.has('http_request_duration_seconds_bucket', { route: '/api/auth/login', le: '0.1' }), 'latency buckets');

    const grpc = (labels: Record<string, string>) =>
      after.sum('grpc_client_handling_seconds_count', labels) - before.sum('grpc_client_handling_seconds_count', labels);
    t.is(grpc({ grpc_service: 'platform.core.v1.AuthService', grpc_method: 'Login', grpc_code: 'OK' }), 1, 'the login call to core');
    t.is(
      grpc({ grpc_service: 'platform.bpm.v1.BusinessPartnerService', grpc_method: 'GetBusinessPartner', grpc_code: 'NOT_FOUND' }),
      1,
      'the missing record, by its code',
    );

    t.is(
      grpc({ grpc_service: 'platform.core.v1.SessionService', grpc_method: 'CheckSession', grpc_code: 'OK' }),
      1,
      "the gateway's own 404 on a JWT path asked core whether the session is live",
    );
    t.false(after.has('db_pool_connections'), 'the gateway has no database pool');
    assertProcessFigures(t, after, 'the gateway');
  },
);

test.serial('rate-limit refusals are counted by tier, as unmatched 429 requests', async (t) => {
  const before = await scrape(management);
  const answers = await Promise.all(Array.from({ length: 6 }, () => api('GET', '/api/health', from('198.51.100.72'))));
  const refused = answers.filter((res) => res.status === 429).length;
  t.true(refused >= 3, `public tier of 3: ${refused} of 6 refused`);
  const after = await scrape(management);
  t.is(after.sum('rate_limit_refusals_total', { tier: 'public' }) - before.sum('rate_limit_refusals_total', { tier: 'public' }), refused);
  t.is(after.sum('rate_limit_refusals_total', { tier: 'jwt' }) - before.sum('rate_limit_refusals_total', { tier: 'jwt' }), 0, 'no other tier');
  const http = (m: Metrics) => m.sum('http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '429' });
  t.is(http(after) - http(before), refused, 'refused before routing: route "unmatched", status 429');
});

test.serial('login-guard refusals are counted: the sixth wrong password for a user and address', async (t) => {
  const before = await scrape(management);
  const userCode = unique('nobody');
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await api('POST', '/api/auth/login', {
      ...from('198.51.100.73'),
      apiKey: true,
      body: { userCode, password: 'wrong-password', languageCode: 'en' },
    });
    statuses.push(res.status);
  }
  t.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
  const after = await scrape(management);
  const refusals = (m: Metrics) => m.sum('password_guard_refusals_total', { guard: 'login', reason: 'refused' });
  t.is(refusals(after) - refusals(before), 1);
  const failed = (m: Metrics) => m.sum('grpc_client_handling_seconds_count', { grpc_method: 'Login', grpc_code: 'UNAUTHENTICATED' });
  t.is(failed(after) - failed(before), 5, 'the five wrong passwords reached core and came back UNAUTHENTICATED');
});

test.serial(
  'each service serves /metrics on its metrics port: gRPC server calls by method and code, the ORM pool, event-loop lag and process figures',
  async (t) => {
    const services = ['core-svc', 'bpm-svc', 'dms-svc'] as const;
    const bases = services.map((name) => {
      const address = gateway.metrics[name];
      if (!address) throw new Error(`${name} reported no metrics address`);
      return `http://${address}`;
    });
    const before = await Promise.all(bases.map(scrape));
    const { token } = await adminSession();
    t.is((await api('GET', '/api/auth/me', { ...from('198.51.100.74'), token })).status, 200);
    t.is((await api('GET', '/api/business-partner/999999999', { ...from('198.51.100.74'), token })).status, 404);
    t.is((await api('GET', '/api/dms-category/999999999', { ...from('198.51.100.74'), token })).status, 404);
    const after = await Promise.all(bases.map(scrape));

    const calls = [
      { service: 'platform.core.v1.AuthService', method: 'Me', code: 'OK' },
      { service: 'platform.bpm.v1.BusinessPartnerService', method: 'GetBusinessPartner', code: 'NOT_FOUND' },
      { service: 'platform.dms.v1.DmsCategoryService', method: 'GetDmsCategory', code: 'NOT_FOUND' },
    ];
    calls.forEach((call, i) => {
      const labels = { grpc_service: call.service, grpc_method: call.method, grpc_code: call.code };
      const count = (m: Metrics | undefined) => m?.sum('grpc_server_handling_seconds_count', labels) ?? 0;
      t.is(count(after[i]) - count(before[i]), 1, `${services[i]}: ${call.method} ${call.code}`);
      t.true(after[i]?.has('grpc_server_handling_seconds_bucket', { ...labels, le: '0.1' }), `${services[i]}: latency buckets`);
    });
    after.forEach((metrics, i) => {
      const who = services[i] ?? '';
      t.true(metrics.has('db_pool_connections', { pool: 'orm', state: 'used' }), `${who}: ORM pool in use`);
      t.true(metrics.sum('db_pool_connections', { pool: 'orm' }) >= 1, `${who}: the pool holds its connections`);
      t.is(metrics.sum('db_pool_max', { pool: 'orm' }), 10, `${who}: pool size`);
      t.true(metrics.has('db_pool_waiting', { pool: 'orm' }));
      assertProcessFigures(t, metrics, who);
    });
  },
);

test.serial('a metrics port serves nothing but /metrics and /health (the probe when gRPC wants client certificates)', async (t) => {
  const base = `http://${gateway.metrics['bpm-svc']}`;
  t.is((await fetch(`${base}/`)).status, 404);
  t.is((await fetch(`${base}/metrics/x`)).status, 404);
  t.is((await fetch(`${base}/metrics`, { method: 'POST' })).status, 404);
  t.is((await fetch(`${base}/health`, { method: 'POST' })).status, 404);
  const health = await fetch(`${base}/health`);
  t.is(health.status, 200);
  t.deepEqual(await health.json(), { status: 'SERVING' });
});

test.serial("dms-svc's file server counts its requests by route template and status, never by path", async (t) => {
  const base = `http://${gateway.metrics['dms-svc']}`;
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const before = await scrape(base);
  const stored = await upload({ token, crProcessId, content: 'metrics', fileName: 'metrics.txt', baseUrl: gateway.url });
  t.is(stored.status, 200, stored.text);
  const secret = `tok${unique()}`;
  t.is((await api('GET', `/api/dms-share-link/public/${secret}`, from('198.51.100.75'))).status, 404);
  const after = await scrape(base);
  const count = (labels: Record<string, string>) =>
    after.sum('http_request_duration_seconds_count', labels) - before.sum('http_request_duration_seconds_count', labels);
  t.is(count({ method: 'POST', route: '/api/dms-file/upload', status: '200' }), 1);
  t.is(count({ method: 'GET', route: '/api/dms-share-link/public/:token', status: '404' }), 1);
  t.false(
    after.samples.some((sample) => Object.values(sample.labels).some((value) => value.includes(secret))),
    'no share token in any label',
  );
});

/**
 * core-svc's webhook figures count each attempt it makes, exactly
 * (docs/adr/0082-webhook-figures-and-fairness-between.md): on a platform of its own (a fresh
 * database, so that no other file's deliveries move the counters), five deliveries answered 200 and
 * one whose endpoint answers 500 to the first attempt and every retry move
 * `webhook_attempts_total{outcome="delivered"}` by 5, `{outcome="failed"}` by 4 and
 * `webhook_delivery_seconds_count` by 5, neither more nor less.
 */
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionCookieOf } from '@platform/kit/auth/request-token.ts';
import { startPlatform } from '../scripts/lib/processes.ts';
import { createFreshDatabase, resolveTestDatabase } from '../scripts/lib/test-database.ts';
import { throwawayEnv } from '../scripts/lib/throwaway-env.ts';
import { unique } from './helpers/factories.ts';
import { scrape } from './helpers/metrics.ts';
import { resolveTestRedis, uniquePrefix } from './helpers/redis.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

const DELIVERED = 5;
/** The first attempt and the three retries of the schedule below. */
const FAILED_ATTEMPTS = 4;

test('core-svc counts each webhook attempt once: 5 delivered, 4 failed (an attempt and 3 retries), 5 timed to their 2xx', async (t) => {
  t.timeout(180_000);
  const redis = await resolveTestRedis(process.env);
  const server = await resolveTestDatabase(process.env);
  const database = await createFreshDatabase(server.adminUrl, 'platform_webhook_metrics', { servingRole: true });
  t.teardown(() => database.drop());
  const workDir = await mkdtemp(join(tmpdir(), 'platform-webhook-metrics-'));
  t.teardown(() => rm(workDir, { recursive: true, force: true }));
  const { env, secrets } = throwawayEnv(database.servingUrl, workDir, {
    DATABASE_OWNER_URL: database.url,
    BCRYPT_ROUNDS: '4',
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: uniquePrefix('webhook-metrics'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '200,400,800',
    // long enough that no attempt is taken again for a lapsed lease on a busy machine
    WEBHOOK_LEASE_MS: '30000',
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_DISABLE_AFTER_MS: '60000',
  });
  const platform = await startPlatform({ env, ports: 'free', log: { file: join(workDir, 'platform.log') } });
  t.teardown(() => platform.stop());
  const ok = await startReceiver();
  t.teardown(() => ok.close());
  const failing = await startReceiver();
  t.teardown(() => failing.close());
  failing.answer = (_req, res) => {
    res.statusCode = 500;
    res.end('no');
  };

  let token = '';
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { 'x-api-key': secrets.CORE_API_KEY };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${platform.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
  };
  const login = await call('POST', '/api/auth/login', { userCode: 'admin', password: secrets.ADMIN_PASSWORD, languageCode: 'en' });
  t.is(login.status, 200, login.text);
  token = sessionCookieOf(login.headers.getSetCookie())?.token ?? '';
  const crProcessId = 7_000_000 + Math.floor(Math.random() * 1_000_000);
  const subscribe = async (url: string, eventTypes: string[]) => {
    const res = await call('POST', '/api/webhook-subscription', { crProcessId, url, eventTypes, description: 'metrics' });
    t.is(res.status, 200, res.text);
    return res.json;
  };
  const delivered = await subscribe(ok.url, ['business-partner.created']);
  const refused = await subscribe(failing.url, ['business-partner.updated']);

  const core = `http://${platform.metrics['core-svc']}`;
  const before = await scrape(core);
  const partners: any[] = [];
  for (let i = 0; i < DELIVERED; i++) {
    const res = await call('POST', '/api/business-partner', {
      crProcessId,
      partnerCode: unique('P-'),
      partnerName: unique('Partner '),
      partnerType: 'CUSTOMER',
    });
    t.is(res.status, 200, res.text);
    partners.push(res.json);
  }
  const renamed = await call('PUT', `/api/business-partner/${partners[0].id}`, { version: partners[0].version, partnerName: unique('Renamed ') });
  t.is(renamed.status, 200, renamed.text);

  // every attempt is counted before it is recorded: once the log says DELIVERED and FAILED, all are in
  const log = async (subscriptionId: number) =>
    ((await call('POST', '/api/webhook-delivery/list', { filter: { crProcessId, subscriptionId }, size: 100 })).json?.content ?? []) as any[];
  let rows: { delivered: any[]; refused: any[] } = { delivered: [], refused: [] };
  for (let tries = 0; tries < 150; tries++) {
    rows = { delivered: await log(delivered.id), refused: await log(refused.id) };
    const settled =
      rows.delivered.filter((row) => row.deliveryStatus === 'DELIVERED').length === DELIVERED &&
      rows.refused.length === 1 &&
      rows.refused[0].deliveryStatus === 'FAILED';
    if (settled) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  t.deepEqual(
    rows.delivered.map((row) => [row.deliveryStatus, row.attempts]),
    Array.from({ length: DELIVERED }, () => ['DELIVERED', 1]),
  );
  t.deepEqual(
    rows.refused.map((row) => [row.deliveryStatus, row.attempts, row.lastStatusCode]),
    [['FAILED', FAILED_ATTEMPTS, 500]],
  );
  t.is(ok.received.length, DELIVERED, 'the endpoint answering 200 got one attempt per event');
  t.is(failing.received.length, FAILED_ATTEMPTS, 'the endpoint answering 500 got the attempt and its retries');

  const after = await scrape(core);
  const moved = (name: string, labels?: Record<string, string>) => after.sum(name, labels) - before.sum(name, labels);
  const figures = after.text
    .split('\n')
    .filter((line) => line.startsWith('webhook_'))
    .join('\n');
  t.is(moved('webhook_attempts_total', { outcome: 'delivered' }), DELIVERED, figures);
  t.is(moved('webhook_attempts_total', { outcome: 'failed' }), FAILED_ATTEMPTS, figures);
  t.is(moved('webhook_delivery_seconds_count'), DELIVERED, figures);
});

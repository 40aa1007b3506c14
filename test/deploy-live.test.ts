/**
 * What deploy/ promises about the running processes, checked against them: every series and label the
 * production alert rules (deploy/components/monitoring/prometheus-rules.yaml) and the
 * prometheus-adapter rule select is one the gateway, core-svc, bpm-svc or dms-svc really serve on
 * /metrics; and the gateway under production's TRUST_PROXY, behind one ingress hop that appends the
 * address it saw to X-Forwarded-For, judges a client by that address, whatever the client wrote.
 *
 * A gateway of this file's own (the suite's services behind it), with production's TRUST_PROXY and
 * its management port open, so its /metrics can be scraped as Prometheus would; the services'
 * /metrics are the suite platform's. Series that exist once something happened (a refused password,
 * a 5xx-capable request) are made to happen first. Serial: one scrape after all the traffic.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import type { Platform } from '../scripts/lib/processes.ts';
import { unique } from './helpers/factories.ts';
import { type Metrics, scrape } from './helpers/metrics.ts';
import { api, platform } from './helpers/platform.ts';
import { startGateway, uniquePrefix, untilRedisUp } from './helpers/redis.ts';
import { parse } from 'yaml';
import { DEPLOYMENTS, GATEWAY } from './helpers/deploy-layout.ts';
import { render } from './helpers/deploy-render.ts';
import { ADAPTER_VALUES, PLATFORM_GROUP, SYNTHETIC_SERIES, TARGET_LABELS, alertRules } from './helpers/deploy-monitoring.ts';
import { selectorsOf } from './helpers/deploy-promql.ts';
import type { Selector } from './helpers/deploy-promql.ts';

const production = render('production');
let gateway: Platform;
/** Each process's scrape, by its app.kubernetes.io/name. */
const scrapes = new Map<string, Metrics>();
/** The six wrong passwords' answers, each sent from the same client through the ingress. */
let guessed: number[] = [];

test.before(async () => {
  gateway = await startGateway(platform.env, {
    REDIS_KEY_PREFIX: uniquePrefix('deploy-live'),
    TRUST_PROXY: production.config().data.TRUST_PROXY ?? '',
    MANAGEMENT_PORT: '0',
  });
  await untilRedisUp(gateway);
  // a login, a record that is not there, a path no route takes: HTTP and gRPC series
  const client = { baseUrl: gateway.url, headers: { 'x-forwarded-for': '198.51.100.80' } };
  const login = await api('POST', '/api/auth/login', {
    ...client,
    apiKey: true,
    body: { userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en' },
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  await api('GET', '/api/no-such-thing', client);
  // Wrong passwords from one client whose own X-Forwarded-For differs each time: the ingress
  // appends the address it saw (203.0.113.81). The login guard counts per user and address, so the
  // sixth is refused only if every one was judged as 203.0.113.81.
  const userCode = unique('nobody');
  guessed = [];
  for (let i = 1; i <= 6; i++) {
    const res = await api('POST', '/api/auth/login', {
      baseUrl: gateway.url,
      headers: { 'x-forwarded-for': `192.0.2.${i}, 203.0.113.81` },
      apiKey: true,
      body: { userCode, password: 'wrong-password', languageCode: 'en' },
    });
    guessed.push(res.status);
  }
  const addresses: Record<string, string | undefined> = { [GATEWAY]: gateway.metrics.gateway, ...platform.metrics };
  for (const name of DEPLOYMENTS) {
    const address = addresses[name];
    if (!address) throw new Error(`${name}: no metrics address`);
    scrapes.set(name, await scrape(`http://${address}`));
  }
});

test.after.always(async () => {
  await gateway?.stop();
});

/** Which processes' scrapes a selector may find its series in: the one its app_kubernetes_io_name names, else all. */
function scrapesFor(selector: Selector): [string, Metrics][] {
  const name = selector.equals.app_kubernetes_io_name;
  return [...scrapes].filter(([process]) => name === undefined || process === name);
}

/** Where a selector's metric and labels fall short of what the processes serve; empty when they don't. */
function shortfalls(selector: Selector): string[] {
  if (SYNTHETIC_SERIES.includes(selector.metric)) return [];
  const candidates = scrapesFor(selector);
  if (candidates.length === 0) return [`app_kubernetes_io_name="${selector.equals.app_kubernetes_io_name}" names no process of the platform`];
  const samples = candidates.flatMap(([, metrics]) => metrics.matching(selector.metric));
  if (samples.length === 0) return [`${selector.metric} is served by none of ${candidates.map(([name]) => name).join(', ')}`];
  const added = [...TARGET_LABELS.fromTarget, ...TARGET_LABELS.fromPods];
  return selector.labels
    .filter((label) => !added.includes(label))
    .filter((label) => !samples.some((sample) => label in sample.labels))
    .map((label) => `${selector.metric} has no label ${label}`);
}

test.serial("every series and label the production alert rules over the platform's own series select is one the processes serve", (t) => {
  const rules = alertRules(production).filter((rule) => rule.group === PLATFORM_GROUP);
  t.true(rules.length >= 6, `${rules.length} rules`);
  for (const rule of rules) {
    const selectors = selectorsOf(rule.expr);
    t.true(selectors.length > 0, rule.alert);
    for (const selector of selectors) t.deepEqual(shortfalls(selector), [], `${rule.alert}: ${selector.metric}`);
  }
});

test.serial('a rule that names a series nobody serves, or a label it lacks, is caught', (t) => {
  // the check above fails on a misspelt name, a label of another series, a process that does not serve it
  t.notDeepEqual(shortfalls(selectorsOf('rate(http_requests_total[5m])')[0]!), []);
  t.notDeepEqual(shortfalls(selectorsOf('rate(http_request_duration_seconds_count{code="500"}[5m])')[0]!), []);
  t.notDeepEqual(shortfalls(selectorsOf('db_pool_waiting{app_kubernetes_io_name="gateway"}')[0]!), [], 'the gateway has no database pool');
  t.deepEqual(shortfalls(selectorsOf('db_pool_waiting{app_kubernetes_io_name="core-svc",pool="orm"}')[0]!), []);
});

test.serial("the prometheus-adapter rule's series is the gateway's, with the labels it selects on", (t) => {
  const values = parse(readFileSync(ADAPTER_VALUES, 'utf8')) as { rules: { custom: { seriesQuery: string }[] } };
  for (const { seriesQuery } of values.rules.custom) {
    for (const selector of selectorsOf(seriesQuery)) {
      t.is(selector.equals.app_kubernetes_io_name, GATEWAY, 'the gateway pods alone');
      t.deepEqual(shortfalls(selector), [], seriesQuery);
    }
  }
});

test.serial("behind one ingress hop, production's TRUST_PROXY judges a client by the address the ingress saw, not by what the client wrote", (t) => {
  t.is(production.config().data.TRUST_PROXY, '1', 'one hop: the ingress controller');
  // each guess carried another client-written address; all six counted for 203.0.113.81
  t.deepEqual(guessed, [401, 401, 401, 401, 401, 429]);
  const refused = scrapes.get(GATEWAY)?.sum('password_guard_refusals_total', { guard: 'login', reason: 'refused' });
  t.is(refused, 1, 'the sixth guess is the refusal the brute-force alert counts');
});

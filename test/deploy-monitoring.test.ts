/**
 * deploy/components/monitoring (deploy/README.md "Monitoring"): metrics Services and the ServiceMonitor
 * that scrape each process's /metrics, the PrometheusRule's alerts (valid PromQL, severity, summary,
 * a runbook section that exists in deploy/README.md) and the prometheus-adapter rule behind the
 * production gateway autoscaler. Whether the series the rules name are the ones the processes serve
 * is test/deploy-monitoring-series.test.ts, against a running platform.
 * Rendered by test/helpers/deploy-render.ts.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IService } from 'kubernetes-models/v1/Service';
import { DEPLOY, DEPLOYMENTS, GATEWAY, METRICS_PORTS } from './helpers/deploy-layout.ts';
import { render } from './helpers/deploy-render.ts';
import { app, containerPort, isMetricsService, labelSelectorMatches, podLabels, scrapeTargets, selects } from './helpers/deploy-objects.ts';
import type { K8sObject } from './helpers/deploy-render.ts';
import type { ServiceMonitor } from './helpers/deploy-objects.ts';
import { selectorsOf } from './helpers/deploy-promql.ts';
import { ADAPTER_VALUES, MONITORED_LAYERS, PLATFORM_GROUP, TARGET_LABELS, alertRules, githubAnchors } from './helpers/deploy-monitoring.ts';

const README = readFileSync(join(DEPLOY, 'README.md'), 'utf8');

for (const layer of MONITORED_LAYERS) {
  test(`${layer}: one headless metrics Service per Deployment, on its /metrics port, and one ServiceMonitor scraping them with the labels the rules use`, (t) => {
    const rendered = render(layer);
    const config = rendered.config().data;
    const monitors = rendered.all<ServiceMonitor>('ServiceMonitor');
    t.is(monitors.length, 1, 'one ServiceMonitor');
    const monitor = monitors[0]!;
    const metricsServices = rendered.all<IService>('Service').filter((service) => labelSelectorMatches(monitor.spec.selector, service.metadata?.labels ?? {}));
    t.is(metricsServices.length, DEPLOYMENTS.length, 'it selects one Service per Deployment');
    for (const service of metricsServices) t.true(isMetricsService(service), `${service.metadata?.name}: headless, ports named metrics`);
    for (const name of DEPLOYMENTS) {
      const port = name === GATEWAY ? Number(config.MANAGEMENT_PORT) : Number(config[METRICS_PORTS[name as keyof typeof METRICS_PORTS]]);
      const own = metricsServices.filter((service) => selects(service.spec?.selector, podLabels(rendered.deployment(name))));
      t.is(own.length, 1, `${name}: one metrics Service selects its pods`);
      for (const other of DEPLOYMENTS.filter((d) => d !== name)) {
        t.false(selects(own[0]?.spec?.selector, podLabels(rendered.deployment(other))), `${name}'s metrics Service does not select ${other}`);
      }
      const { annotations, monitored } = scrapeTargets(rendered, name);
      t.is(annotations, undefined, `${name}: no prometheus.io annotations, which an annotation-driven job would scrape a second time`);
      t.deepEqual(
        monitored.map((target) => target.containerPort),
        [port],
        `${name}: scraped on ${port}`,
      );
      t.is(own[0]?.metadata?.labels?.['app.kubernetes.io/name'], name, `${name}: its metrics Service carries the job label's source`);
      t.truthy(containerPort(app(rendered.deployment(name)), port), `${name}: ${port} is a container port`);
    }
    t.is(monitor.spec.jobLabel, 'app.kubernetes.io/name', 'job is gateway, core-svc, bpm-svc, dms-svc');
    // prometheus-operator copies each pod label to a target label of its sanitized name
    const copied = (monitor.spec.podTargetLabels ?? []).map((label) => label.replace(/[^a-zA-Z0-9_]/g, '_'));
    for (const label of TARGET_LABELS.fromPods) t.true(copied.includes(label), `podTargetLabels gives ${label}`);
    t.is(monitor.spec.namespaceSelector, undefined, "its own namespace only (the overlay's)");
    for (const endpoint of monitor.spec.endpoints) t.is(endpoint.port, 'metrics');
  });

  test(`${layer}: every alert has a severity, a summary and a runbook section of deploy/README.md; its PromQL parses; the namespace it names is the overlay's`, (t) => {
    const rendered = render(layer);
    const namespace = rendered.deployment(GATEWAY).metadata?.namespace;
    const rules = alertRules(rendered);
    const anchors = githubAnchors(README);
    t.true(rules.length >= 10, `${rules.length} alerts`);
    t.is(new Set(rules.map((rule) => rule.alert)).size, rules.length, 'alert names are unique');
    for (const { group, alert, expr, labels, annotations, for: pending } of rules) {
      t.regex(alert, /^Platform[A-Z][A-Za-z]+$/, `${alert}: named Platform…`);
      t.true(['critical', 'warning'].includes(labels?.severity ?? ''), `${alert}: severity critical or warning (${labels?.severity})`);
      t.true((annotations?.summary ?? '').length > 10, `${alert}: a summary`);
      const runbook = /^deploy\/README\.md#([a-z0-9-]+)$/.exec(annotations?.runbook_url ?? '');
      t.truthy(runbook, `${alert}: runbook_url deploy/README.md#<anchor> (${annotations?.runbook_url})`);
      t.is(runbook?.[1], alert.toLowerCase(), `${alert}: its runbook is the section named after it`);
      t.true(anchors.has(runbook?.[1] ?? ''), `${alert}: deploy/README.md has the section #${runbook?.[1]}`);
      const selectors = selectorsOf(expr);
      t.true(selectors.length > 0, `${alert}: selects some series`);
      if (group === PLATFORM_GROUP) {
        t.truthy(pending, `${alert}: a for: duration, so one bad scrape does not page`);
      } else {
        for (const { metric } of selectors) t.regex(metric, /^kube_/, `${alert}: group ${group} is kube-state-metrics' series`);
        for (const match of expr.matchAll(/namespace="([^"]*)"/g)) t.is(match[1], namespace, `${alert}: names the overlay's namespace`);
        t.true(/namespace="/.test(expr), `${alert}: kept to the platform's namespace`);
      }
    }
    // every runbook section under "Alerts" belongs to an alert that exists
    const sections = [...README.matchAll(/^#### (Platform[A-Za-z]+)$/gm)].map((match) => match[1]);
    t.deepEqual([...sections].sort(), rules.map((rule) => rule.alert).sort(), 'one runbook section per alert, no other');
  });

  test(`${layer}: the prometheus-adapter rule gives the gateway autoscaler's Pods metric, from the gateway's request counter`, (t) => {
    const rendered = render(layer);
    const hpa = rendered.all<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler').find((scaler) => scaler.spec?.scaleTargetRef.name === GATEWAY);
    const wanted = (hpa?.spec?.metrics ?? []).filter((metric) => metric.type === 'Pods').map((metric) => metric.pods?.metric.name);
    t.deepEqual(wanted, ['http_requests_per_second'], 'the gateway autoscaler asks for one Pods metric');
    const values = parse(readFileSync(ADAPTER_VALUES, 'utf8')) as AdapterValues;
    const rules = values.rules.custom.filter((rule) => wanted.includes(rule.name.as));
    t.is(rules.length, 1, `one adapter rule gives ${wanted.join(', ')}`);
    const rule = rules[0]!;
    const series = selectorsOf(rule.seriesQuery);
    t.is(series.length, 1);
    const metric = series[0]!.metric;
    t.regex(metric, new RegExp(rule.name.matches), 'name.matches takes the series the query finds');
    t.is(metric, 'http_request_duration_seconds_count', "the gateway's request counter");
    t.deepEqual(Object.keys(rule.resources.overrides).sort(), ['namespace', 'pod'], 'per pod, as a Pods metric needs');
    for (const label of Object.keys(rule.resources.overrides)) t.true(TARGET_LABELS.fromTarget.includes(label), `the ServiceMonitor gives ${label}`);
    t.true(series[0]!.labels.includes('app_kubernetes_io_name'), "kept to the gateway's pods");
    // the adapter fills in <<.Series>>, <<.LabelMatchers>>, <<.GroupBy>>
    const query = rule.metricsQuery
      .replace('<<.Series>>', metric)
      .replace('<<.LabelMatchers>>', 'namespace="platform",pod=~"gateway-.*"')
      .replace('<<.GroupBy>>', 'pod');
    t.deepEqual(
      selectorsOf(query).map((selector) => selector.metric),
      [metric],
      'metricsQuery is PromQL over the series',
    );
    t.regex(rule.metricsQuery, /rate\(/, 'a rate: requests per second');
  });
}

test('development and test have no ServiceMonitor and keep the prometheus.io annotations', (t) => {
  for (const layer of ['development', 'test'] as const) {
    const rendered = render(layer);
    t.is(rendered.all<K8sObject>('ServiceMonitor').length, 0, layer);
    t.is(rendered.all<K8sObject>('PrometheusRule').length, 0, layer);
    for (const name of DEPLOYMENTS) t.truthy(scrapeTargets(rendered, name).annotations, `${layer}: ${name} annotated`);
  }
});

interface AdapterValues {
  rules: {
    custom: {
      seriesQuery: string;
      resources: { overrides: Record<string, { resource: string }> };
      name: { matches: string; as: string };
      metricsQuery: string;
    }[];
  };
}

/**
 * What the monitoring tests share: where deploy/components/monitoring's rules and the
 * prometheus-adapter values are, the labels a scrape through its ServiceMonitor adds to every series,
 * and the alerting rules of a rendered layer.
 */
import { join } from 'node:path';
import { DEPLOY } from './deploy-layout.ts';
import type { Layer } from './deploy-layout.ts';
import type { K8sObject, Rendered } from './deploy-render.ts';

/** The layers that include deploy/components/monitoring. */
export const MONITORED_LAYERS: Layer[] = ['production', 'production-gateway-api'];

/** The Helm values of prometheus-adapter with the rule behind the gateway autoscaler's Pods metric. */
export const ADAPTER_VALUES = join(DEPLOY, 'components/monitoring/prometheus-adapter-values.yaml');

/** The rule group over the platform's own series (the other is kube-state-metrics'). */
export const PLATFORM_GROUP = 'platform';

/**
 * Labels a series has in Prometheus but not on /metrics: what prometheus-operator gives every target
 * of a ServiceMonitor, and the pod labels service-monitor.yaml copies (podTargetLabels, sanitized).
 */
export const TARGET_LABELS = {
  fromTarget: ['namespace', 'pod', 'service', 'endpoint', 'container', 'job', 'instance'],
  fromPods: ['app_kubernetes_io_name', 'app_kubernetes_io_part_of'],
};

/** Series Prometheus writes itself for every target, not served on any /metrics. */
export const SYNTHETIC_SERIES = ['up', 'scrape_duration_seconds', 'scrape_samples_scraped'];

export interface AlertRule {
  group: string;
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface PrometheusRule extends K8sObject {
  spec: { groups: { name: string; rules: Omit<AlertRule, 'group'>[] }[] };
}

/** Every alerting rule of the layer's PrometheusRules, with its group's name. */
export function alertRules(rendered: Rendered): AlertRule[] {
  return rendered
    .all<PrometheusRule>('PrometheusRule')
    .flatMap((rule) => rule.spec.groups.flatMap((group) => group.rules.filter((r) => r.alert).map((r) => ({ ...r, group: group.name }))));
}

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
export function githubAnchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
      (match[1] ?? '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

/**
 * Questions the deploy-*.test.ts files ask of rendered objects (deploy-render.ts): a Deployment's
 * container, its ports and probes, env files, label selectors, pod templates, addresses, and the
 * monitoring objects (deploy/components/monitoring).
 */
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { ILabelSelector } from '@kubernetes-models/apimachinery/apis/meta/v1/LabelSelector';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { IService } from 'kubernetes-models/v1/Service';
import { DEPLOYMENTS, DMS_HTTP, GRPC_SERVICES, MIGRATE_JOB, type GrpcService } from './deploy-layout.ts';
import { only, type K8sObject, type Rendered } from './deploy-render.ts';

export function app(deployment: IDeployment): IContainer {
  return only(deployment.spec?.template.spec?.containers, deployment.metadata?.name ?? 'a Deployment');
}

/** A container port given by number or by name, as a number. */
export function containerPort(container: IContainer, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

export function probePort(container: IContainer, probe: IProbe | undefined): number | undefined {
  if (!probe) return undefined;
  if (probe.grpc) return probe.grpc.port;
  if (probe.httpGet) return containerPort(container, probe.httpGet.port);
  if (probe.tcpSocket) return containerPort(container, probe.tcpSocket.port);
  return undefined;
}

/** The KEY=value lines of an env file (comments and blank lines skipped). */
export function envFile(text: string): Map<string, string> {
  return new Map(
    text
      .split('\n')
      .filter((line) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
  );
}

export function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

/**
 * A LabelSelector as Kubernetes reads it (matchLabels and matchExpressions, all must hold); the empty
 * selector `{}` selects every pod, as a NetworkPolicy's podSelector does.
 */
export function labelSelectorMatches(selector: ILabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpression = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    if (operator === 'In') return key in labels && values.includes(labels[key]!);
    if (operator === 'NotIn') return !(key in labels) || !values.includes(labels[key]!);
    if (operator === 'Exists') return key in labels;
    if (operator === 'DoesNotExist') return !(key in labels);
    throw new Error(`unknown selector operator ${operator}`);
  });
  return byLabel && byExpression;
}

/** Every pod template of a layer with its labels and container: the Deployments' and the migrate Job's. */
export function pods(rendered: Rendered): { name: string; labels: Record<string, string>; container: IContainer }[] {
  const job = rendered.job(MIGRATE_JOB);
  return [
    ...DEPLOYMENTS.map((name) => ({ name, labels: podLabels(rendered.deployment(name)), container: app(rendered.deployment(name)) })),
    {
      name: `Job ${MIGRATE_JOB}`,
      labels: job.spec?.template.metadata?.labels ?? {},
      container: only(job.spec?.template.spec?.containers, `Job ${MIGRATE_JOB}`),
    },
  ];
}

export function podLabels(deployment: IDeployment): Record<string, string> {
  return deployment.spec?.template.metadata?.labels ?? {};
}

/**
 * A variable as a Deployment's container sees it: its own `env` entry, else the rendered ConfigMap
 * when the container reads it through envFrom.
 */
export function envOf(rendered: Rendered, name: string, variable: string): string | undefined {
  const container = app(rendered.deployment(name));
  const own = container.env?.find((entry) => entry.name === variable);
  if (own) return own.value;
  const config = rendered.config();
  const reads = (container.envFrom ?? []).some((source) => source.configMapRef?.name === config.metadata?.name);
  return reads ? config.data[variable] : undefined;
}

/** The ports a Service's pods may be reached on: their gRPC port, and dms-svc's HTTP port. */
export function servicePorts(rendered: Rendered, name: GrpcService): number[] {
  const config = rendered.config().data;
  const ports = [parseAddress(config[GRPC_SERVICES[name]]).port];
  if (name === DMS_HTTP.service) ports.push(parseAddress(config[DMS_HTTP.variable]).port);
  return ports;
}

export function parseAddress(address: string | undefined): { host: string; port: number } {
  const match = /^([a-z0-9.-]+):(\d+)$/.exec(address ?? '');
  if (!match) throw new Error(`not a host:port address: ${address}`);
  return { host: match[1]!, port: Number(match[2]) };
}

/**
 * kustomize wraps a Secret's long base64 values at 70 characters; the API server's decoder skips the
 * line breaks, the schema's `byte` format does not. Validate the value as the server reads it.
 */
export function forValidation(object: K8sObject): K8sObject {
  if (object.kind !== 'Secret' || typeof object.data !== 'object' || object.data === null) return object;
  const data = Object.fromEntries(Object.entries(object.data as Record<string, string>).map(([key, value]) => [key, value.replace(/\s/g, '')]));
  return { ...object, data };
}

// ---------------------------------------------------------------------------------------------
// Monitoring (deploy/components/monitoring)

/** A prometheus-operator ServiceMonitor, as far as the deploy tests read it. */
export interface ServiceMonitor extends K8sObject {
  spec: {
    jobLabel?: string;
    podTargetLabels?: string[];
    selector: ILabelSelector;
    namespaceSelector?: { any?: boolean; matchNames?: string[] };
    endpoints: { port?: string; path?: string; scheme?: string; interval?: string }[];
  };
}

/**
 * A Service that exists for Prometheus alone: headless (no virtual address to route anything
 * through), labelled app.kubernetes.io/component=metrics, every port named `metrics`.
 */
export function isMetricsService(service: IService): boolean {
  return (
    service.spec?.clusterIP === 'None' &&
    service.metadata?.labels?.['app.kubernetes.io/component'] === 'metrics' &&
    (service.spec.ports ?? []).length > 0 &&
    (service.spec.ports ?? []).every((p) => p.name === 'metrics')
  );
}

/**
 * How Prometheus finds a Deployment's /metrics: the ServiceMonitors whose metrics Services select
 * its pods (the endpoint port and the container port it reaches), and its pod annotations.
 */
export function scrapeTargets(
  rendered: Rendered,
  name: string,
): {
  annotations: { port: string; path: string } | undefined;
  monitored: { monitor: string; service: string; containerPort: number | undefined; path: string }[];
} {
  const deployment = rendered.deployment(name);
  const labels = podLabels(deployment);
  const annotations = deployment.spec?.template.metadata?.annotations ?? {};
  const monitored = rendered.all<ServiceMonitor>('ServiceMonitor').flatMap((monitor) =>
    rendered
      .all<IService>('Service')
      .filter((service) => labelSelectorMatches(monitor.spec.selector, service.metadata?.labels ?? {}))
      .filter(
        (service) =>
          // a ServiceMonitor looks in its own namespace unless its namespaceSelector says otherwise
          (monitor.spec.namespaceSelector?.any ?? false) ||
          (monitor.spec.namespaceSelector?.matchNames ?? [monitor.metadata?.namespace]).includes(service.metadata?.namespace),
      )
      .filter((service) => selects(service.spec?.selector, labels))
      .flatMap((service) =>
        monitor.spec.endpoints.flatMap((endpoint) => {
          const servicePort = service.spec?.ports?.find((p) => p.name === endpoint.port);
          if (!servicePort) return [];
          return [
            {
              monitor: monitor.metadata?.name ?? '',
              service: service.metadata?.name ?? '',
              containerPort: containerPort(app(deployment), servicePort.targetPort ?? servicePort.port),
              path: endpoint.path ?? '/metrics',
            },
          ];
        }),
      ),
  );
  return {
    annotations:
      annotations['prometheus.io/scrape'] === 'true'
        ? { port: annotations['prometheus.io/port'] ?? '', path: annotations['prometheus.io/path'] ?? '/metrics' }
        : undefined,
    monitored,
  };
}

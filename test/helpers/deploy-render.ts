/**
 * Renders deploy/ (base and each overlay) with `kubectl kustomize` for the deploy-*.test.ts files,
 * and the helpers their rules share (NetworkPolicy evaluation is deploy-network-policy.ts). The development overlay reads the git-ignored secrets.env; it
 * is rendered from a temporary copy of deploy/ in which secrets.env is the committed
 * secrets.env.example, so no real secret is ever read. kubectl is required: without it every test
 * fails and says so.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { ILabelSelector } from '@kubernetes-models/apimachinery/apis/meta/v1/LabelSelector';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { IService } from 'kubernetes-models/v1/Service';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DEPLOY = join(ROOT, 'deploy');

export const LAYERS = ['base', 'development', 'test', 'production', 'production-gateway-api'] as const;
/**
 * Variants of an overlay that deploy/README.md tells the operator how to make, rendered from the
 * temporary copy: the overlay with one line of its kustomization.yaml replaced.
 */
export const VARIANTS = {
  // "A way in": the Gateway API component in place of the Ingress one
  'production-gateway-api': { overlay: 'production', replace: '- ../../components/ingress\n', with: '- ../../components/gateway-api\n' },
} as const;
/** The overlays whose Secret platform-secrets kustomize generates from a git-ignored secrets.env (with a committed example). */
export const GENERATED_SECRETS = ['development', 'test'] as const;
export type Layer = (typeof LAYERS)[number];

export const GATEWAY = 'gateway';
/** Each gRPC service and the ConfigMap variable that holds its `Service:port` address. */
export const GRPC_SERVICES = { 'core-svc': 'CORE_GRPC_ADDR', 'bpm-svc': 'BPM_GRPC_ADDR', 'dms-svc': 'DMS_GRPC_ADDR' } as const;
export type GrpcService = keyof typeof GRPC_SERVICES;
/**
 * dms-svc's HTTP server for file bytes (DMS_HTTP_ADDR, `Service:port`): the gateway proxies to it and
 * dms-svc cannot tell the gateway from anyone else there, so only the gateway may reach it.
 */
export const DMS_HTTP = { service: 'dms-svc', variable: 'DMS_HTTP_ADDR', portName: 'http' } as const;
export const DEPLOYMENTS = [GATEWAY, ...(Object.keys(GRPC_SERVICES) as GrpcService[])];
/** The clamd Deployment of deploy/components/clamav (production): not one of the platform's processes, checked by test/deploy-clamav.test.ts. */
export const CLAMAV = 'clamav';
/** clamd's port, its Service's and CLAMD_ADDRESS's. */
export const CLAMD_PORT = 3310;
/** Each service's Prometheus port variable; the container port is named `metrics`. The gateway's /metrics is on MANAGEMENT_PORT. */
export const METRICS_PORTS = { 'core-svc': 'CORE_METRICS_PORT', 'bpm-svc': 'BPM_METRICS_PORT', 'dms-svc': 'DMS_METRICS_PORT' } as const;
/** The namespace Prometheus scrapes from (NetworkPolicy metrics-from-monitoring). */
export const MONITORING_NAMESPACE = 'monitoring';
/** The Job that runs the services' migrations before a rollout (production services do not migrate). */
export const MIGRATE_JOB = 'migrate';
export const SECRET_NAME = 'platform-secrets';
/** The Secret with the gRPC certificates that deploy/components/grpc-mtls mounts (never rendered from git). */
export const TLS_SECRET_NAME = 'platform-grpc-tls';
export const TLS_VARIABLES = ['GRPC_TLS_CA', 'GRPC_TLS_CERT', 'GRPC_TLS_KEY'] as const;
/**
 * Who calls each service over gRPC: the gateway, and bpm-svc and dms-svc record unexpected failures
 * in core-svc's exception log (libs/kit/src/grpc/exception-log.ts). Nothing else may.
 */
export const GRPC_CALLERS: Record<GrpcService, string[]> = { 'core-svc': [GATEWAY, 'bpm-svc', 'dms-svc'], 'bpm-svc': [GATEWAY], 'dms-svc': [GATEWAY] };
/** The ports of DATABASE_URL and REDIS_URL (the secrets.env examples use them; the datastore egress policies allow them). */
export const POSTGRES_PORT = 5432;
export const REDIS_PORT = 6379;
export const DNS_PORT = 53;
export const SECRET_KEYS = ['JWT_SECRET', 'CORE_API_KEY', 'DMS_URL_SECRET', 'DATABASE_URL', 'REDIS_URL'];
/** The keys of the Secret the gateway reads, each by reference: not DATABASE_URL (it holds no database credential). */
export const GATEWAY_SECRET_KEYS = ['JWT_SECRET', 'CORE_API_KEY', 'DMS_URL_SECRET', 'REDIS_URL'];
export const CONFIG_KEYS = [
  'APP_ENV',
  'MANAGEMENT_PORT',
  'CORE_METRICS_PORT',
  'BPM_METRICS_PORT',
  'DMS_METRICS_PORT',
  'ALLOWED_ORIGINS',
  'IP_FILTER_ENABLED',
  'TRUST_PROXY',
  'RATE_LIMIT_PUBLIC',
  'RATE_LIMIT_API_KEY',
  'RATE_LIMIT_JWT',
  'CORE_GRPC_ADDR',
  'BPM_GRPC_ADDR',
  'DMS_GRPC_ADDR',
  'DMS_HTTP_ADDR',
  'DMS_STORAGE_DIR',
  'DMS_MAX_UPLOAD_BYTES',
  'DMS_URL_TTL_SECONDS',
];

// ---------------------------------------------------------------------------------------------
// Rendering

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export class Rendered {
  readonly layer: Layer;
  readonly objects: K8sObject[];

  constructor(layer: Layer, objects: K8sObject[]) {
    this.layer = layer;
    this.objects = objects;
  }

  all<T>(kind: string): T[] {
    return this.objects.filter((object) => object.kind === kind) as T[];
  }

  one<T>(kind: string, name: string): T {
    const found = this.objects.filter((object) => object.kind === kind && object.metadata?.name === name);
    if (found.length !== 1) throw new Error(`${this.layer}: expected one ${kind} ${name}, found ${found.length}`);
    return found[0] as T;
  }

  /** The single ConfigMap platform-config every Deployment reads (its name carries kustomize's hash); components may add their own beside it. */
  config(): IConfigMap & { data: Record<string, string> } {
    const maps = this.all<IConfigMap>('ConfigMap').filter((map) => /^platform-config(-[a-z0-9]+)?$/.test(map.metadata?.name ?? ''));
    if (maps.length !== 1) throw new Error(`${this.layer}: expected one ConfigMap, found ${maps.length}`);
    const map = maps[0]!;
    return { ...map, data: map.data ?? {} };
  }

  deployment(name: string): IDeployment {
    return this.one<IDeployment>('Deployment', name);
  }

  job(name: string): IJob {
    return this.one<IJob>('Job', name);
  }

  /** Whether the layer runs clamd (deploy/components/clamav). */
  hasClamav(): boolean {
    return this.all<IDeployment>('Deployment').some((deployment) => deployment.metadata?.name === CLAMAV);
  }

  /**
   * Every pod template the layer renders, found by kind rather than by name: each Deployment's,
   * StatefulSet's, DaemonSet's, ReplicaSet's and Job's `spec.template`, each CronJob's
   * `spec.jobTemplate.spec.template`, and each bare Pod; named `<kind> <name>`.
   */
  podTemplates(): { name: string; labels: Record<string, string>; pod: IPodSpec | undefined }[] {
    type Template = { metadata?: { labels?: Record<string, string> }; spec?: IPodSpec };
    const templates: { name: string; labels: Record<string, string>; pod: IPodSpec | undefined }[] = [];
    for (const object of this.objects) {
      const spec = object.spec as { template?: Template; jobTemplate?: { spec?: { template?: Template } } } | IPodSpec | undefined;
      const name = `${object.kind} ${object.metadata?.name}`;
      if (['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'].includes(object.kind)) {
        const template = (spec as { template?: Template } | undefined)?.template;
        templates.push({ name, labels: template?.metadata?.labels ?? {}, pod: template?.spec });
      } else if (object.kind === 'CronJob') {
        const template = (spec as { jobTemplate?: { spec?: { template?: Template } } } | undefined)?.jobTemplate?.spec?.template;
        templates.push({ name, labels: template?.metadata?.labels ?? {}, pod: template?.spec });
      } else if (object.kind === 'Pod') {
        templates.push({ name, labels: object.metadata?.labels ?? {}, pod: spec as IPodSpec | undefined });
      }
    }
    return templates;
  }

  /** Every pod template: the Deployments' (clamd's where the layer has it) and the migrate Job's, each with its one container. */
  workloads(): { name: string; pod: IPodSpec | undefined; container: IContainer }[] {
    const job = this.job(MIGRATE_JOB);
    const names = this.hasClamav() ? [...DEPLOYMENTS, CLAMAV] : DEPLOYMENTS;
    return [
      ...names.map((name) => ({
        name,
        pod: this.deployment(name).spec?.template.spec,
        container: only(this.deployment(name).spec?.template.spec?.containers, name),
      })),
      { name: `Job ${MIGRATE_JOB}`, pod: job.spec?.template.spec, container: only(job.spec?.template.spec?.containers, `Job ${MIGRATE_JOB}`) },
    ];
  }
}

export function findKubectl(): string {
  const candidates = [process.env.KUBECTL, '/usr/bin/kubectl', ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'kubectl'))];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(
    'kubectl not found (looked at $KUBECTL, /usr/bin/kubectl and PATH): these tests render deploy/ with ' +
      '`kubectl kustomize` and cannot run without it. Install kubectl 1.27 or later.',
  );
}

let workspace: string | undefined;

/** A copy of deploy/ without any real secrets.env; each overlay's is its committed example. */
export function deployCopy(): string {
  if (workspace) return join(workspace, 'deploy');
  workspace = mkdtempSync(join(tmpdir(), 'platform-deploy-test-'));
  const copy = join(workspace, 'deploy');
  cpSync(DEPLOY, copy, { recursive: true, filter: (source) => basename(source) !== 'secrets.env' });
  for (const overlay of GENERATED_SECRETS) {
    copyFileSync(join(DEPLOY, `overlays/${overlay}/secrets.env.example`), join(copy, `overlays/${overlay}/secrets.env`));
  }
  for (const [variant, { overlay, replace, with: replacement }] of Object.entries(VARIANTS)) {
    cpSync(join(copy, `overlays/${overlay}`), join(copy, `overlays/${variant}`), { recursive: true });
    const file = join(copy, `overlays/${variant}/kustomization.yaml`);
    const text = readFileSync(file, 'utf8');
    if (!text.includes(replace)) throw new Error(`overlays/${overlay}/kustomization.yaml has no line ${JSON.stringify(replace)} to make ${variant} of`);
    writeFileSync(file, text.replace(replace, replacement));
  }
  return copy;
}

test.after.always(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

export const cache = new Map<Layer, Rendered>();

export function render(layer: Layer): Rendered {
  const cached = cache.get(layer);
  if (cached) return cached;
  const kubectl = findKubectl();
  const dir = join(deployCopy(), layer === 'base' ? 'base' : `overlays/${layer}`);
  const result = spawnSync(kubectl, ['kustomize', dir], { encoding: 'utf8' });
  if (result.error) throw new Error(`${kubectl} kustomize ${dir}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`kubectl kustomize deploy/${layer === 'base' ? 'base' : `overlays/${layer}`} failed:\n${result.stderr}`);
  const objects = parseAllDocuments(result.stdout).map((document) => {
    if (document.errors.length > 0) throw new Error(`${layer}: unparsable YAML: ${document.errors[0]!.message}`);
    return document.toJS() as K8sObject;
  });
  const rendered = new Rendered(layer, objects.filter(Boolean));
  cache.set(layer, rendered);
  return rendered;
}

// ---------------------------------------------------------------------------------------------
// Helpers

export function app(deployment: IDeployment): IContainer {
  return only(deployment.spec?.template.spec?.containers, deployment.metadata?.name ?? 'a Deployment');
}

export function only(containers: IContainer[] | undefined, owner: string): IContainer {
  if (containers?.length !== 1) throw new Error(`${owner}: expected one container, found ${containers?.length ?? 0}`);
  return containers[0]!;
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

/** A layer-named test per layer. */
export function eachLayer(title: string, check: (t: ExecutionContext, rendered: Rendered) => void | Promise<void>): void {
  for (const layer of LAYERS) {
    test(`${layer}: ${title}`, async (t) => {
      await check(t, render(layer));
    });
  }
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

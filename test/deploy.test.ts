/**
 * The Kubernetes manifests of deploy/: renders base and each overlay with `kubectl kustomize` and
 * checks what operating the platform relies on (deploy/README.md, decisions.md §1 and §8).
 *
 * The development overlay reads the git-ignored secrets.env; it is rendered from a temporary copy of
 * deploy/ in which secrets.env is the committed secrets.env.example, so no real secret is ever read.
 * kubectl is required: without it every test fails and says so.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import type { INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPort';
import type { ILabelSelector } from '@kubernetes-models/apimachinery/apis/meta/v1/LabelSelector';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEPLOY = join(ROOT, 'deploy');

const LAYERS = ['base', 'development', 'test', 'production'] as const;
/** The overlays whose Secret platform-secrets kustomize generates from a git-ignored secrets.env (with a committed example). */
const GENERATED_SECRETS = ['development', 'test'] as const;
type Layer = (typeof LAYERS)[number];

const GATEWAY = 'gateway';
/** Each gRPC service and the ConfigMap variable that holds its `Service:port` address. */
const GRPC_SERVICES = { 'core-svc': 'CORE_GRPC_ADDR', 'bpm-svc': 'BPM_GRPC_ADDR', 'dms-svc': 'DMS_GRPC_ADDR' } as const;
type GrpcService = keyof typeof GRPC_SERVICES;
/**
 * dms-svc's HTTP server for file bytes (DMS_HTTP_ADDR, `Service:port`): the gateway proxies to it and
 * dms-svc cannot tell the gateway from anyone else there, so only the gateway may reach it.
 */
const DMS_HTTP = { service: 'dms-svc', variable: 'DMS_HTTP_ADDR', portName: 'http' } as const;
const DEPLOYMENTS = [GATEWAY, ...(Object.keys(GRPC_SERVICES) as GrpcService[])];
/** Each service's Prometheus port variable; the container port is named `metrics`. The gateway's /metrics is on MANAGEMENT_PORT. */
const METRICS_PORTS = { 'core-svc': 'CORE_METRICS_PORT', 'bpm-svc': 'BPM_METRICS_PORT', 'dms-svc': 'DMS_METRICS_PORT' } as const;
/** The namespace Prometheus scrapes from (NetworkPolicy metrics-from-monitoring). */
const MONITORING_NAMESPACE = 'monitoring';
/** The Job that runs the services' migrations before a rollout (production services do not migrate). */
const MIGRATE_JOB = 'migrate';
const SECRET_NAME = 'platform-secrets';
/** The Secret with the gRPC certificates that deploy/components/grpc-mtls mounts (never rendered from git). */
const TLS_SECRET_NAME = 'platform-grpc-tls';
const TLS_VARIABLES = ['GRPC_TLS_CA', 'GRPC_TLS_CERT', 'GRPC_TLS_KEY'] as const;
/**
 * Who calls each service over gRPC: the gateway, and bpm-svc and dms-svc record unexpected failures
 * in core-svc's exception log (libs/src/grpc/exception-log.ts). Nothing else may.
 */
const GRPC_CALLERS: Record<GrpcService, string[]> = { 'core-svc': [GATEWAY, 'bpm-svc', 'dms-svc'], 'bpm-svc': [GATEWAY], 'dms-svc': [GATEWAY] };
/** The ports of DATABASE_URL and REDIS_URL (the secrets.env examples use them; the datastore egress policies allow them). */
const POSTGRES_PORT = 5432;
const REDIS_PORT = 6379;
const DNS_PORT = 53;
const SECRET_KEYS = ['JWT_SECRET', 'CORE_API_KEY', 'DMS_URL_SECRET', 'DATABASE_URL', 'REDIS_URL'];
const CONFIG_KEYS = [
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

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

class Rendered {
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

  /** The single ConfigMap every Deployment reads (its name carries kustomize's hash). */
  config(): IConfigMap & { data: Record<string, string> } {
    const maps = this.all<IConfigMap>('ConfigMap');
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

  /** Every pod template: the Deployments' and the migrate Job's, each with its one container. */
  workloads(): { name: string; pod: IPodSpec | undefined; container: IContainer }[] {
    const job = this.job(MIGRATE_JOB);
    return [
      ...DEPLOYMENTS.map((name) => ({ name, pod: this.deployment(name).spec?.template.spec, container: app(this.deployment(name)) })),
      { name: `Job ${MIGRATE_JOB}`, pod: job.spec?.template.spec, container: only(job.spec?.template.spec?.containers, `Job ${MIGRATE_JOB}`) },
    ];
  }
}

function findKubectl(): string {
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
function deployCopy(): string {
  if (workspace) return join(workspace, 'deploy');
  workspace = mkdtempSync(join(tmpdir(), 'platform-deploy-test-'));
  const copy = join(workspace, 'deploy');
  cpSync(DEPLOY, copy, { recursive: true, filter: (source) => basename(source) !== 'secrets.env' });
  for (const overlay of GENERATED_SECRETS) {
    copyFileSync(join(DEPLOY, `overlays/${overlay}/secrets.env.example`), join(copy, `overlays/${overlay}/secrets.env`));
  }
  return copy;
}

test.after.always(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

const cache = new Map<Layer, Rendered>();

function render(layer: Layer): Rendered {
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

function app(deployment: IDeployment): IContainer {
  return only(deployment.spec?.template.spec?.containers, deployment.metadata?.name ?? 'a Deployment');
}

function only(containers: IContainer[] | undefined, owner: string): IContainer {
  if (containers?.length !== 1) throw new Error(`${owner}: expected one container, found ${containers?.length ?? 0}`);
  return containers[0]!;
}

/** A container port given by number or by name, as a number. */
function containerPort(container: IContainer, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

function probePort(container: IContainer, probe: IProbe | undefined): number | undefined {
  if (!probe) return undefined;
  if (probe.grpc) return probe.grpc.port;
  if (probe.httpGet) return containerPort(container, probe.httpGet.port);
  if (probe.tcpSocket) return containerPort(container, probe.tcpSocket.port);
  return undefined;
}

/** The KEY=value lines of an env file (comments and blank lines skipped). */
function envFile(text: string): Map<string, string> {
  return new Map(
    text
      .split('\n')
      .filter((line) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
  );
}

function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

/**
 * A LabelSelector as Kubernetes reads it (matchLabels and matchExpressions, all must hold); the empty
 * selector `{}` selects every pod, as a NetworkPolicy's podSelector does.
 */
function labelSelectorMatches(selector: ILabelSelector | undefined, labels: Record<string, string>): boolean {
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
function pods(rendered: Rendered): { name: string; labels: Record<string, string>; container: IContainer }[] {
  const job = rendered.job(MIGRATE_JOB);
  return [
    ...DEPLOYMENTS.map((name) => ({ name, labels: podLabels(rendered.deployment(name)), container: app(rendered.deployment(name)) })),
    { name: `Job ${MIGRATE_JOB}`, labels: job.spec?.template.metadata?.labels ?? {}, container: only(job.spec?.template.spec?.containers, `Job ${MIGRATE_JOB}`) },
  ];
}

/** The NetworkPolicies that select pods with `labels` for `direction`. */
function policiesFor(rendered: Rendered, labels: Record<string, string>, direction: 'Ingress' | 'Egress'): INetworkPolicy[] {
  return rendered
    .all<INetworkPolicy>('NetworkPolicy')
    .filter((policy) => labelSelectorMatches(policy.spec?.podSelector, labels))
    .filter((policy) => (policy.spec?.policyTypes ?? (direction === 'Ingress' || policy.spec?.egress ? ['Ingress', 'Egress'] : ['Ingress'])).includes(direction));
}

type Peer = { pod: Record<string, string> } | { namespace: string; pod?: Record<string, string> } | 'external';

/** Whether a policy peer takes in `peer`: a pod of this namespace, a pod of another namespace, or an address outside the cluster. */
function peerAdmits(rule: INetworkPolicyPeer, peer: Peer): boolean {
  if (peer === 'external') return rule.ipBlock !== undefined && (rule.ipBlock.except ?? []).length === 0 && ['0.0.0.0/0', '::/0'].includes(rule.ipBlock.cidr);
  if (rule.ipBlock) return false;
  if ('namespace' in peer) {
    return labelSelectorMatches(rule.namespaceSelector, { 'kubernetes.io/metadata.name': peer.namespace }) && (!rule.podSelector || labelSelectorMatches(rule.podSelector, peer.pod ?? {}));
  }
  return rule.namespaceSelector === undefined && labelSelectorMatches(rule.podSelector, peer.pod);
}

/** Whether a rule's ports take in `port` (a number, or the name of a container port of `container`). */
function portAdmits(ports: INetworkPolicyPort[] | undefined, port: number, protocol: string, container?: IContainer): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => (p.protocol ?? 'TCP') === protocol && (p.port === undefined || p.port === port || (container !== undefined && containerPort(container, p.port) === port)));
}

/** Whether the pod `labels` may open a connection to `peer` on `port`. */
function egressAllowed(rendered: Rendered, labels: Record<string, string>, peer: Peer, port: number, protocol = 'TCP', peerContainer?: IContainer): boolean {
  return policiesFor(rendered, labels, 'Egress').some((policy) =>
    (policy.spec?.egress ?? []).some(
      (rule) => (rule.to === undefined || rule.to.length === 0 || rule.to.some((to) => peerAdmits(to, peer))) && portAdmits(rule.ports, port, protocol, peerContainer),
    ),
  );
}

/** Whether the pod `labels` (whose container is `container`) accepts a connection from `peer` on `port`. */
function ingressAllowed(rendered: Rendered, labels: Record<string, string>, container: IContainer, peer: Peer, port: number): boolean {
  return policiesFor(rendered, labels, 'Ingress').some((policy) =>
    (policy.spec?.ingress ?? []).some(
      (rule) => (rule.from === undefined || rule.from.length === 0 || rule.from.some((from) => peerAdmits(from, peer))) && portAdmits(rule.ports, port, 'TCP', container),
    ),
  );
}

function podLabels(deployment: IDeployment): Record<string, string> {
  return deployment.spec?.template.metadata?.labels ?? {};
}

/**
 * A variable as a Deployment's container sees it: its own `env` entry, else the rendered ConfigMap
 * when the container reads it through envFrom.
 */
function envOf(rendered: Rendered, name: string, variable: string): string | undefined {
  const container = app(rendered.deployment(name));
  const own = container.env?.find((entry) => entry.name === variable);
  if (own) return own.value;
  const config = rendered.config();
  const reads = (container.envFrom ?? []).some((source) => source.configMapRef?.name === config.metadata?.name);
  return reads ? config.data[variable] : undefined;
}

/** The ports a Service's pods may be reached on: their gRPC port, and dms-svc's HTTP port. */
function servicePorts(rendered: Rendered, name: GrpcService): number[] {
  const config = rendered.config().data;
  const ports = [parseAddress(config[GRPC_SERVICES[name]]).port];
  if (name === DMS_HTTP.service) ports.push(parseAddress(config[DMS_HTTP.variable]).port);
  return ports;
}

/** A NetworkPolicy rule that admits Prometheus to a metrics port, and nothing else. */
function isMetricsRule(rule: { ports?: { port?: number | string }[] }): boolean {
  return (rule.ports?.length ?? 0) > 0 && (rule.ports ?? []).every((p) => p.port === 'metrics');
}

function parseAddress(address: string | undefined): { host: string; port: number } {
  const match = /^([a-z0-9.-]+):(\d+)$/.exec(address ?? '');
  if (!match) throw new Error(`not a host:port address: ${address}`);
  return { host: match[1]!, port: Number(match[2]) };
}

/**
 * kustomize wraps a Secret's long base64 values at 70 characters; the API server's decoder skips the
 * line breaks, the schema's `byte` format does not. Validate the value as the server reads it.
 */
function forValidation(object: K8sObject): K8sObject {
  if (object.kind !== 'Secret' || typeof object.data !== 'object' || object.data === null) return object;
  const data = Object.fromEntries(Object.entries(object.data as Record<string, string>).map(([key, value]) => [key, value.replace(/\s/g, '')]));
  return { ...object, data };
}

/** A layer-named test per layer. */
function eachLayer(title: string, check: (t: ExecutionContext, rendered: Rendered) => void | Promise<void>): void {
  for (const layer of LAYERS) {
    test(`${layer}: ${title}`, async (t) => {
      await check(t, render(layer));
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Every layer

eachLayer('every rendered object passes its Kubernetes API schema', async (t, rendered) => {
  for (const object of rendered.objects) {
    const where = `${object.kind} ${object.metadata?.name}`;
    const module = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`)) as Record<string, new (data: unknown) => { validate(): void }>;
    const Model = module[object.kind];
    if (!Model) {
      t.fail(`${where}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    t.notThrows(() => new Model(forValidation(object)).validate(), where);
  }
});

eachLayer('the four Deployments run one image, set by kustomize, with node <svc>/src/main.ts', (t, rendered) => {
  t.deepEqual(rendered.all<IDeployment>('Deployment').map((d) => d.metadata?.name).sort(), [...DEPLOYMENTS].sort());
  const images = new Set<string | undefined>();
  for (const name of DEPLOYMENTS) {
    const deployment = rendered.deployment(name);
    const container = app(deployment);
    images.add(container.image);
    t.deepEqual(container.command, ['node', `${name}/src/main.ts`], name);
    t.true(selects(deployment.spec?.selector.matchLabels, podLabels(deployment)), `${name}: selector matches its pods`);
  }
  t.is(images.size, 1, 'one image for all Deployments');
  const [image] = [...images];
  // `platform` alone would mean the kustomize `images` entry did not apply.
  t.regex(image ?? '', /(^|\/)platform:[\w][\w.-]*$/, `image ${image} is the platform image with an explicit tag`);
  t.notRegex(image ?? '', /:latest$/, 'no floating latest tag');
});

eachLayer('every Deployment and the migrate Job have resource requests and limits', (t, rendered) => {
  for (const { name, container } of rendered.workloads()) {
    const { resources } = container;
    for (const bound of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) {
        t.truthy(resources?.[bound]?.[resource], `${name}: resources.${bound}.${resource}`);
      }
    }
  }
});

eachLayer('every pod runs hardened: non-root, read-only root, no capabilities, RuntimeDefault seccomp, 30 s grace', (t, rendered) => {
  for (const { name, pod, container } of rendered.workloads()) {
    const security = container.securityContext;
    t.true(pod?.securityContext?.runAsNonRoot ?? security?.runAsNonRoot, `${name}: runAsNonRoot`);
    t.not(security?.runAsNonRoot, false, `${name}: the container does not undo runAsNonRoot`);
    const uid = security?.runAsUser ?? pod?.securityContext?.runAsUser;
    t.true(uid === undefined || uid > 0, `${name}: runAsUser is not root`);
    t.true(security?.readOnlyRootFilesystem, `${name}: readOnlyRootFilesystem`);
    t.false(security?.allowPrivilegeEscalation, `${name}: allowPrivilegeEscalation false`);
    t.not(security?.privileged, true, `${name}: not privileged`);
    t.true(security?.capabilities?.drop?.includes('ALL'), `${name}: drops ALL capabilities`);
    t.deepEqual(security?.capabilities?.add ?? [], [], `${name}: adds no capability`);
    t.is((security?.seccompProfile ?? pod?.securityContext?.seccompProfile)?.type, 'RuntimeDefault', `${name}: seccomp RuntimeDefault`);
    t.is(pod?.terminationGracePeriodSeconds, 30, `${name}: terminationGracePeriodSeconds`);
  }
});

eachLayer('the migrate Job runs what `npm run migrate -- up` runs, with the Deployments\' image, unprobed, retried a little and bounded in time', (t, rendered) => {
  t.deepEqual(rendered.all<IJob>('Job').map((job) => job.metadata?.name), [MIGRATE_JOB], 'one Job');
  const job = rendered.job(MIGRATE_JOB);
  const pod = job.spec?.template.spec;
  const container = only(pod?.containers, `Job ${MIGRATE_JOB}`);
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.migrate;
  t.deepEqual(container.command, [...(script ?? '').split(' '), 'up'], `the command is package.json's migrate script (${script}) with up`);
  t.is(container.image, app(rendered.deployment(GATEWAY)).image, 'the image of the release the Deployments run');
  t.deepEqual(pod?.initContainers ?? [], []);
  // Nothing to probe; a liveness probe would kill a migrator that waits for another's lock.
  for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) t.is(container[kind], undefined, kind);
  t.is(pod?.restartPolicy, 'Never', 'a failed run leaves its pod (and log) behind; the Job retries in a new one');
  t.true((job.spec?.backoffLimit ?? 6) <= 3, 'a failing migration is not retried for long');
  t.true((job.spec?.activeDeadlineSeconds ?? 0) > 0, 'a run waiting for a lock nobody releases ends');
  t.is(job.spec?.parallelism ?? 1, 1);
  t.is(job.spec?.completions ?? 1, 1);
  t.false(pod?.automountServiceAccountToken ?? true, 'no API token in the pod');
});

eachLayer('no container carries a secret value inline: the migrate Job takes DATABASE_URL from the Secret by reference', (t, rendered) => {
  const secrets = rendered.all<ISecret>('Secret').map((secret) => secret.metadata?.name);
  for (const { name, container } of rendered.workloads()) {
    for (const entry of container.env ?? []) {
      if (![...SECRET_KEYS, 'ADMIN_PASSWORD'].includes(entry.name)) continue;
      t.is(entry.value, undefined, `${name}: ${entry.name} has no inline value`);
      t.truthy(entry.valueFrom?.secretKeyRef, `${name}: ${entry.name} comes from a Secret`);
    }
  }
  const job = only(rendered.job(MIGRATE_JOB).spec?.template.spec?.containers, `Job ${MIGRATE_JOB}`);
  const url = job.env?.find((entry) => entry.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;
  t.is(url?.key, 'DATABASE_URL');
  t.not(url?.optional, true, 'required: without it the Job waits for the Secret');
  if (secrets.length === 0) t.is(url?.name, SECRET_NAME, `the operator's Secret ${SECRET_NAME}`);
  else t.true(secrets.includes(url?.name), 'the generated Secret');
  t.deepEqual(job.envFrom ?? [], [], 'it reads DATABASE_URL alone, not every secret');
});

eachLayer('gateway probes /api/health on its management port (MANAGEMENT_PORT), which no Service exposes', (t, rendered) => {
  const container = app(rendered.deployment(GATEWAY));
  const config = rendered.config().data;
  const port = Number(config.GATEWAY_PORT);
  const management = Number(config.MANAGEMENT_PORT);
  t.is(containerPort(container, 'http'), port, 'container port http is GATEWAY_PORT');
  t.is(containerPort(container, 'management'), management, 'container port management is MANAGEMENT_PORT');
  t.not(management, port);
  for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
    // Probes on the public port would share the node address's public rate limit (60/min).
    t.is(container[kind]?.httpGet?.path, '/api/health', kind);
    t.is(probePort(container, container[kind]), management, `${kind} on the management port`);
  }
  for (const service of rendered.all<IService>('Service')) {
    for (const servicePort of service.spec?.ports ?? []) {
      t.not(containerPort(container, servicePort.targetPort), management, `Service ${service.metadata?.name} does not expose the management port`);
    }
  }
});

eachLayer('each gRPC service is probed on its own: the native gRPC probe on the port of its address, or GET /health on its metrics port where gRPC wants client certificates', (t, rendered) => {
  const config = rendered.config().data;
  const tls = TLS_VARIABLES.some((variable) => config[variable]);
  for (const [name, variable] of Object.entries(GRPC_SERVICES)) {
    const container = app(rendered.deployment(name));
    const { port } = parseAddress(config[variable]);
    t.truthy(container.ports?.some((p) => p.containerPort === port), `${name}: listens on ${port} (${variable})`);
    for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
      const probe = container[kind];
      if (tls) {
        // the kubelet's gRPC probe has no client certificate: it would fail, and the pods never be ready
        t.is(probe?.grpc, undefined, `${name}: ${kind} is no gRPC probe while GRPC_TLS_* is set`);
        t.is(probe?.httpGet?.path, '/health', `${name}: ${kind} asks GET /health`);
        t.is(probePort(container, probe), Number(config[METRICS_PORTS[name as GrpcService]]), `${name}: ${kind} on the metrics port`);
      } else {
        t.truthy(probe?.grpc, `${name}: ${kind} uses the native gRPC probe`);
        t.is(probePort(container, probe), port, `${name}: ${kind} port`);
      }
    }
  }
});

eachLayer('Services match the addresses: gateway 80 → 8080 ClusterIP, *_GRPC_ADDR = Service:port → container port', (t, rendered) => {
  const config = rendered.config().data;

  const gateway = rendered.one<IService>('Service', GATEWAY);
  const gatewayContainer = app(rendered.deployment(GATEWAY));
  t.is(gateway.spec?.type ?? 'ClusterIP', 'ClusterIP');
  t.true(selects(gateway.spec?.selector, podLabels(rendered.deployment(GATEWAY))), 'gateway Service selects the gateway pods');
  t.is(gateway.spec?.ports?.length, 1);
  t.is(gateway.spec?.ports?.[0]?.port, 80);
  t.is(containerPort(gatewayContainer, gateway.spec?.ports?.[0]?.targetPort), 8080);
  t.is(config.GATEWAY_PORT, '8080');

  for (const [name, variable] of Object.entries(GRPC_SERVICES)) {
    const { host, port } = parseAddress(config[variable]);
    t.is(host, name, `${variable} names the Service ${name}`);
    const service = rendered.one<IService>('Service', host);
    const deployment = rendered.deployment(name);
    t.true(selects(service.spec?.selector, podLabels(deployment)), `Service ${name} selects the ${name} pods`);
    for (const other of DEPLOYMENTS.filter((d) => d !== name)) {
      t.false(selects(service.spec?.selector, podLabels(rendered.deployment(other))), `Service ${name} does not select ${other}`);
    }
    const servicePort = service.spec?.ports?.find((p) => p.port === port);
    t.truthy(servicePort, `Service ${name} has port ${port} (${variable})`);
    t.is(containerPort(app(deployment), servicePort?.targetPort ?? port), port, `Service ${name} port ${port} reaches container port ${port}`);
  }
});

eachLayer('every container reads the ConfigMap and the Secret platform-secrets', (t, rendered) => {
  const config = rendered.config();
  const secrets = rendered.all<ISecret>('Secret');
  for (const name of DEPLOYMENTS) {
    const envFrom = app(rendered.deployment(name)).envFrom ?? [];
    t.true(envFrom.some((source) => source.configMapRef?.name === config.metadata?.name), `${name}: envFrom the rendered ConfigMap`);
    const secretRefs = envFrom.flatMap((source) => (source.secretRef ? [source.secretRef] : []));
    t.is(secretRefs.length, 1, `${name}: one secretRef`);
    const ref = secretRefs[0];
    t.not(ref?.optional, true, `${name}: the Secret is required, not optional`);
    if (secrets.length === 0) {
      t.is(ref?.name, SECRET_NAME, `${name}: references the operator's Secret ${SECRET_NAME}`);
    } else {
      t.true(secrets.some((secret) => secret.metadata?.name === ref?.name), `${name}: references the generated Secret`);
    }
  }
});

eachLayer('the ConfigMap holds the settings and no secret', (t, rendered) => {
  const { data } = rendered.config();
  for (const key of CONFIG_KEYS) t.true(key in data, `ConfigMap has ${key}`);
  for (const key of [...SECRET_KEYS, 'ADMIN_PASSWORD']) t.false(key in data, `${key} is not in the ConfigMap`);
  t.regex(data.APP_ENV ?? '', /^(development|test|production)$/);
  t.is(data.DMS_STORAGE_DIR, '/var/lib/platform/files');
});

eachLayer('dms-svc keeps files on its PersistentVolumeClaim at DMS_STORAGE_DIR; DATA_DIR is writable', (t, rendered) => {
  const config = rendered.config().data;
  const dms = rendered.deployment('dms-svc');
  const mount = app(dms).volumeMounts?.find((m) => m.mountPath === config.DMS_STORAGE_DIR);
  t.truthy(mount, 'a volume is mounted at DMS_STORAGE_DIR');
  t.not(mount?.readOnly, true);
  const volume = dms.spec?.template.spec?.volumes?.find((v) => v.name === mount?.name);
  const claim = volume?.persistentVolumeClaim?.claimName;
  t.truthy(claim, 'that volume is a PersistentVolumeClaim');
  const pvc = rendered.one<IPersistentVolumeClaim>('PersistentVolumeClaim', claim ?? '');
  t.truthy(pvc.spec?.resources?.requests?.storage, 'the claim requests storage');

  // The root filesystem is read-only, so DATA_DIR has to be a writable mount; and the mount itself,
  // since a folder below it does not exist when the pod starts, and the gateway's diskSpace health
  // component (statfs of DATA_DIR) would then be DOWN and the gateway never ready.
  for (const name of DEPLOYMENTS) {
    const mounts = app(rendered.deployment(name)).volumeMounts ?? [];
    const dataDir = config.DATA_DIR ?? '';
    t.true(
      mounts.some((m) => m.readOnly !== true && m.mountPath.replace(/\/$/, '') === dataDir.replace(/\/$/, '')),
      `${name}: DATA_DIR ${dataDir} is a writable volume mount`,
    );
  }
});

eachLayer('the gRPC services admit their callers alone (the gateway; bpm-svc and dms-svc to core-svc), on their gRPC port (dms-svc: and its HTTP port)', (t, rendered) => {
  for (const name of Object.keys(GRPC_SERVICES) as GrpcService[]) {
    const allowed = servicePorts(rendered, name);
    const labels = podLabels(rendered.deployment(name));
    const callers = GRPC_CALLERS[name].map((caller) => podLabels(rendered.deployment(caller)));
    const others = DEPLOYMENTS.filter((d) => !GRPC_CALLERS[name].includes(d)).map((other) => ({ other, labels: podLabels(rendered.deployment(other)) }));
    // Prometheus' rule for the metrics port is checked apart (the metrics test below)
    const rules = policiesFor(rendered, labels, 'Ingress').flatMap((policy) => policy.spec?.ingress ?? []).filter((rule) => !isMetricsRule(rule));
    t.true(rules.length > 0, `${name}: an ingress policy allows something`);
    for (const rule of rules) {
      const peers = rule.from ?? [];
      t.true(peers.length > 0, `${name}: no rule admits every source`);
      for (const peer of peers) {
        t.is(peer.ipBlock, undefined, `${name}: no ipBlock peer`);
        t.is(peer.namespaceSelector, undefined, `${name}: no namespaceSelector peer`);
        t.true(callers.some((caller) => labelSelectorMatches(peer.podSelector, caller)), `${name}: the peer is one of ${GRPC_CALLERS[name].join(', ')}`);
        for (const { other, labels: otherLabels } of others) t.false(labelSelectorMatches(peer.podSelector, otherLabels), `${name}: ${other} is not a peer`);
      }
      const ports = rule.ports?.map((p) => p.port) ?? [];
      t.true(ports.length > 0, `${name}: the rule names its ports (none would admit every port)`);
      for (const port of ports) t.true(allowed.includes(port as number), `${name}: port ${port} is one of ${allowed.join(', ')}`);
    }
    const container = app(rendered.deployment(name));
    for (const port of allowed) t.true(ingressAllowed(rendered, labels, container, { pod: podLabels(rendered.deployment(GATEWAY)) }, port), `${name}: the gateway may reach port ${port}`);
    for (const caller of GRPC_CALLERS[name]) {
      t.true(ingressAllowed(rendered, labels, container, { pod: podLabels(rendered.deployment(caller)) }, allowed[0]!), `${name}: ${caller} may call its gRPC port`);
    }
  }
});

eachLayer('a default-deny NetworkPolicy isolates every pod for ingress and egress, and every pod has a policy that allows what it needs', (t, rendered) => {
  const policies = rendered.all<INetworkPolicy>('NetworkPolicy');
  const denials = policies.filter(
    (policy) =>
      Object.keys(policy.spec?.podSelector ?? { none: true }).length === 0 &&
      (['Ingress', 'Egress'] as const).every((type) => policy.spec?.policyTypes?.includes(type)) &&
      (policy.spec?.ingress ?? []).length === 0 &&
      (policy.spec?.egress ?? []).length === 0,
  );
  t.is(denials.length, 1, 'one policy selects every pod and allows nothing, in and out');
  for (const { name, labels } of pods(rendered)) {
    t.true(labelSelectorMatches(denials[0]?.spec?.podSelector, labels), `${name}: isolated by the default deny`);
    const allowing = policies.filter(
      (policy) => labelSelectorMatches(policy.spec?.podSelector, labels) && ((policy.spec?.ingress ?? []).length > 0 || (policy.spec?.egress ?? []).length > 0),
    );
    t.true(allowing.length > 0, `${name}: some policy allows it something`);
    // every pod resolves names (the Services', the datastores') and reaches PostgreSQL
    const dns = { namespace: 'kube-system', pod: { 'k8s-app': 'kube-dns' } };
    t.true(egressAllowed(rendered, labels, dns, DNS_PORT, 'UDP'), `${name}: DNS over UDP`);
    t.true(egressAllowed(rendered, labels, dns, DNS_PORT, 'TCP'), `${name}: DNS over TCP`);
    t.true(egressAllowed(rendered, labels, 'external', POSTGRES_PORT), `${name}: PostgreSQL (${POSTGRES_PORT})`);
    t.false(egressAllowed(rendered, labels, 'external', 443), `${name}: no other address outside (443)`);
  }
});

eachLayer('NetworkPolicies open the ports the processes use (from the ConfigMap) and no other', (t, rendered) => {
  const config = rendered.config().data;
  const gateway = podLabels(rendered.deployment(GATEWAY));
  const gatewayContainer = app(rendered.deployment(GATEWAY));
  const monitoring = { namespace: MONITORING_NAMESPACE, pod: {} };
  const elsewhere = { namespace: 'somewhere-else', pod: {} };
  // The gateway: public port from anywhere, management port from Prometheus only.
  t.true(ingressAllowed(rendered, gateway, gatewayContainer, elsewhere, Number(config.GATEWAY_PORT)), 'GATEWAY_PORT from any namespace (the ingress controller)');
  t.true(ingressAllowed(rendered, gateway, gatewayContainer, monitoring, Number(config.MANAGEMENT_PORT)), 'MANAGEMENT_PORT from monitoring');
  t.false(ingressAllowed(rendered, gateway, gatewayContainer, elsewhere, Number(config.MANAGEMENT_PORT)), 'MANAGEMENT_PORT from nowhere else');
  t.true(egressAllowed(rendered, gateway, 'external', REDIS_PORT), 'the gateway reaches Redis');
  // Out of the gateway: to each service, on exactly the ports of its addresses.
  for (const name of Object.keys(GRPC_SERVICES) as GrpcService[]) {
    const labels = podLabels(rendered.deployment(name));
    const container = app(rendered.deployment(name));
    for (const port of servicePorts(rendered, name)) {
      t.true(egressAllowed(rendered, gateway, { pod: labels }, port, 'TCP', container), `the gateway reaches ${name} on ${port}`);
      t.true(container.ports?.some((p) => p.containerPort === port), `${name} listens on ${port}`);
    }
    t.false(egressAllowed(rendered, gateway, { pod: labels }, Number(config[METRICS_PORTS[name]]), 'TCP', container), `the gateway does not reach ${name}'s metrics port`);
    t.false(egressAllowed(rendered, labels, 'external', REDIS_PORT), `${name}: no Redis`);
    // Out of a service: core-svc's gRPC port for its callers, nothing of another service else.
    for (const other of Object.keys(GRPC_SERVICES) as GrpcService[]) {
      if (other === name) continue;
      const otherLabels = podLabels(rendered.deployment(other));
      const otherContainer = app(rendered.deployment(other));
      const grpcPort = parseAddress(config[GRPC_SERVICES[other]]).port;
      t.is(egressAllowed(rendered, labels, { pod: otherLabels }, grpcPort, 'TCP', otherContainer), GRPC_CALLERS[other].includes(name), `${name} → ${other}:${grpcPort}`);
    }
    t.false(egressAllowed(rendered, labels, { pod: gateway }, Number(config.GATEWAY_PORT)), `${name} does not call the gateway`);
  }
  // Every port any policy names is a port some selected container has (no stale numbers).
  for (const { name, labels, container } of pods(rendered)) {
    for (const policy of policiesFor(rendered, labels, 'Ingress')) {
      for (const port of (policy.spec?.ingress ?? []).flatMap((rule) => rule.ports ?? [])) {
        t.truthy(containerPort(container, port.port), `${name}: ingress port ${port.port} of ${policy.metadata?.name} is a container port`);
      }
    }
  }
  for (const policy of rendered.all<INetworkPolicy>('NetworkPolicy')) {
    for (const rule of policy.spec?.egress ?? []) {
      for (const peer of rule.to ?? []) {
        if (peer.ipBlock) {
          for (const port of rule.ports ?? []) t.true([POSTGRES_PORT, REDIS_PORT].includes(port.port as number), `${policy.metadata?.name}: outside the cluster only PostgreSQL and Redis (${port.port})`);
        } else if (!peer.namespaceSelector) {
          const targets = pods(rendered).filter((pod) => labelSelectorMatches(peer.podSelector, pod.labels));
          t.true(targets.length > 0, `${policy.metadata?.name}: its peer selects a pod of the platform`);
          for (const port of rule.ports ?? []) {
            t.true(targets.every((target) => containerPort(target.container, port.port) !== undefined), `${policy.metadata?.name}: port ${port.port} is a container port of every pod it reaches`);
          }
        }
      }
    }
  }
  // The migrate Job accepts nothing and reaches PostgreSQL and DNS alone.
  const job = pods(rendered).find((pod) => pod.name === `Job ${MIGRATE_JOB}`)!;
  t.false(ingressAllowed(rendered, job.labels, job.container, { pod: gateway }, 8080), 'nothing reaches the migrate Job');
  t.false(egressAllowed(rendered, job.labels, 'external', REDIS_PORT), 'the migrate Job does not reach Redis');
  t.false(egressAllowed(rendered, job.labels, { pod: podLabels(rendered.deployment('core-svc')) }, 50051, 'TCP', app(rendered.deployment('core-svc'))), 'nor a service');
});

eachLayer('with GRPC_TLS_* set, all three are, and every Deployment mounts the Secret platform-grpc-tls where they point', (t, rendered) => {
  const config = rendered.config().data;
  const set = TLS_VARIABLES.filter((variable) => config[variable]);
  if (set.length === 0) {
    t.pass('plaintext gRPC');
    return;
  }
  t.deepEqual(set, [...TLS_VARIABLES], 'all three or none (a partial set refuses the start)');
  t.is(rendered.all<ISecret>('Secret').filter((secret) => secret.metadata?.name?.startsWith(TLS_SECRET_NAME)).length, 0, `${TLS_SECRET_NAME} is the operator's, never rendered`);
  for (const name of DEPLOYMENTS) {
    const deployment = rendered.deployment(name);
    const volume = deployment.spec?.template.spec?.volumes?.find((v) => v.secret?.secretName === TLS_SECRET_NAME);
    t.truthy(volume, `${name}: a volume of the Secret ${TLS_SECRET_NAME}`);
    const mount = app(deployment).volumeMounts?.find((m) => m.name === volume?.name);
    t.true(mount?.readOnly, `${name}: mounted read-only`);
    for (const variable of TLS_VARIABLES) {
      const path = config[variable] ?? '';
      t.is(dirname(path), mount?.mountPath ?? '(no mount)', `${name}: ${variable} (${path}) is in the mount`);
      // the keys cert-manager writes, which the README's kubectl create secret uses too
      t.true(['ca.crt', 'tls.crt', 'tls.key'].includes(basename(path)), `${variable} names a key of the Secret`);
    }
  }
});

eachLayer('gateway reaches dms-svc\'s HTTP port (DMS_HTTP_ADDR) through the Service; dms-svc listens on it', (t, rendered) => {
  const { service, variable, portName } = DMS_HTTP;
  const gatewaySees = envOf(rendered, GATEWAY, variable);
  t.truthy(gatewaySees, `the gateway's environment has ${variable} (without it the gateway dials 127.0.0.1:50054)`);
  const { host, port } = parseAddress(gatewaySees);
  t.is(host, service, `the gateway's ${variable} names the Service ${service}`);
  t.not(port, parseAddress(envOf(rendered, service, GRPC_SERVICES[service])).port, 'the HTTP port is not the gRPC port');

  // dms-svc binds all interfaces on the port of its own DMS_HTTP_ADDR.
  const dmsSees = envOf(rendered, service, variable);
  t.truthy(dmsSees, `dms-svc's environment has ${variable}`);
  const container = app(rendered.deployment(service));
  t.is(containerPort(container, portName), parseAddress(dmsSees).port, `dms-svc's container port ${portName} is the port of its ${variable}`);
  t.is(parseAddress(dmsSees).port, port, 'dms-svc listens on the port the gateway dials');

  const dms = rendered.one<IService>('Service', host);
  t.true(selects(dms.spec?.selector, podLabels(rendered.deployment(service))), `Service ${host} selects the dms-svc pods`);
  const servicePort = dms.spec?.ports?.find((p) => p.port === port);
  t.truthy(servicePort, `Service ${host} exposes port ${port} (${variable})`);
  t.truthy(servicePort?.name, `Service ${host} port ${port} is named`);
  t.is(containerPort(container, servicePort?.targetPort ?? port), port, `Service ${host} port ${port} reaches container port ${port}`);
  // Fenced: reached only inside the cluster, through a ClusterIP Service.
  t.is(dms.spec?.type ?? 'ClusterIP', 'ClusterIP', `Service ${host} is ClusterIP`);
});

eachLayer('only the gateway may reach dms-svc\'s HTTP port (DMS_HTTP_ADDR)', (t, rendered) => {
  const { service, variable } = DMS_HTTP;
  const { port } = parseAddress(rendered.config().data[variable]);
  const labels = podLabels(rendered.deployment(service));
  const gatewayLabels = podLabels(rendered.deployment(GATEWAY));
  const applying = rendered
    .all<INetworkPolicy>('NetworkPolicy')
    .filter((policy) => selects(policy.spec?.podSelector?.matchLabels, labels) && (policy.spec?.policyTypes ?? ['Ingress']).includes('Ingress'));
  t.true(applying.length > 0, `${service}: an ingress NetworkPolicy selects its pods`);
  // Every rule that admits the port: one without ports admits every port.
  const admitting = applying.flatMap((policy) => policy.spec?.ingress ?? []).filter((rule) => !rule.ports || rule.ports.some((p) => p.port === port || p.port === undefined));
  t.true(admitting.length > 0, `${service}: some rule admits port ${port}`);
  for (const rule of admitting) {
    const peers = rule.from ?? [];
    t.true(peers.length > 0, `${service}: no rule admits every source to port ${port}`);
    for (const peer of peers) {
      t.is(peer.ipBlock, undefined, `${service}: no ipBlock peer on port ${port}`);
      t.is(peer.namespaceSelector, undefined, `${service}: no namespaceSelector peer on port ${port}`);
      t.true(selects(peer.podSelector?.matchLabels, gatewayLabels), `${service}: the peer on port ${port} is the gateway`);
      for (const other of DEPLOYMENTS.filter((d) => d !== GATEWAY)) {
        t.false(selects(peer.podSelector?.matchLabels, podLabels(rendered.deployment(other))), `${service}: ${other} may not reach port ${port}`);
      }
    }
  }
});

eachLayer('each service serves /metrics on its container port metrics (*_METRICS_PORT), annotated for Prometheus, reachable from the monitoring namespace only and through no Service; the gateway on its management port', (t, rendered) => {
  const config = rendered.config().data;
  const annotated = (name: string, port: number) => {
    const annotations = rendered.deployment(name).spec?.template.metadata?.annotations ?? {};
    t.is(annotations['prometheus.io/scrape'], 'true', `${name}: scraped`);
    t.is(annotations['prometheus.io/port'], String(port), `${name}: scrape port`);
    t.is(annotations['prometheus.io/path'], '/metrics', `${name}: scrape path`);
  };
  annotated(GATEWAY, Number(config.MANAGEMENT_PORT));
  t.not(Number(config.MANAGEMENT_PORT), Number(config.GATEWAY_PORT), 'never the public port');
  const policies = rendered.all<INetworkPolicy>('NetworkPolicy');
  for (const [name, variable] of Object.entries(METRICS_PORTS)) {
    const port = Number(config[variable]);
    const container = app(rendered.deployment(name));
    t.true(Number.isInteger(port) && port > 0, `${variable} is set`);
    t.is(containerPort(container, 'metrics'), port, `${name}: container port metrics is ${variable}`);
    t.not(port, parseAddress(config[GRPC_SERVICES[name as GrpcService]]).port, `${name}: not the gRPC port`);
    annotated(name, port);
    for (const service of rendered.all<IService>('Service')) {
      for (const servicePort of service.spec?.ports ?? []) {
        if (selects(service.spec?.selector, podLabels(rendered.deployment(name)))) {
          t.not(containerPort(container, servicePort.targetPort), port, `Service ${service.metadata?.name} does not expose ${name}'s metrics port`);
        }
      }
    }
    const rules = policies
      .filter((policy) => selects(policy.spec?.podSelector?.matchLabels, podLabels(rendered.deployment(name))))
      .flatMap((policy) => policy.spec?.ingress ?? [])
      .filter(isMetricsRule);
    t.is(rules.length, 1, `${name}: one rule admits Prometheus to its metrics port`);
    for (const peer of rules[0]?.from ?? []) {
      t.deepEqual(peer.namespaceSelector?.matchLabels, { 'kubernetes.io/metadata.name': MONITORING_NAMESPACE }, `${name}: from the ${MONITORING_NAMESPACE} namespace`);
      t.is(peer.ipBlock, undefined);
    }
    t.true((rules[0]?.from?.length ?? 0) > 0, `${name}: the rule does not admit every source`);
  }
});

eachLayer('every Deployment: its replica count is its HorizontalPodAutoscaler\'s, at least 2 (the Deployment sets none), on CPU', (t, rendered) => {
  const scalers = rendered.all<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
  t.is(scalers.length, DEPLOYMENTS.length, 'one autoscaler per Deployment, no other');
  for (const name of DEPLOYMENTS) {
    const deployment = rendered.deployment(name);
    // a count in the manifest would reset the autoscaler's at every apply (deploy/README.md, "Replicas")
    t.is(deployment.spec?.replicas, undefined, `${name}: no replicas in the manifest`);
    const own = scalers.filter((hpa) => hpa.spec?.scaleTargetRef.kind === 'Deployment' && hpa.spec.scaleTargetRef.name === name);
    t.is(own.length, 1, `${name}: one HorizontalPodAutoscaler`);
    const spec = own[0]?.spec;
    t.is(spec?.scaleTargetRef.apiVersion, 'apps/v1', `${name}: targets apps/v1`);
    t.true((spec?.minReplicas ?? 1) >= 2, `${name}: never fewer than 2 replicas (minReplicas ${spec?.minReplicas})`);
    t.true((spec?.maxReplicas ?? 0) >= (spec?.minReplicas ?? 1), `${name}: maxReplicas ≥ minReplicas`);
    const cpu = spec?.metrics?.find((metric) => metric.type === 'Resource' && metric.resource?.name === 'cpu');
    t.is(cpu?.resource?.target.type, 'Utilization', `${name}: scales on CPU utilisation`);
    t.truthy(app(deployment).resources?.requests?.cpu, `${name}: a CPU request to measure utilisation against`);
  }
});

eachLayer('every Deployment: one PodDisruptionBudget selects exactly its pods and lets one go while keeping at least one', (t, rendered) => {
  const budgets = rendered.all<IPodDisruptionBudget>('PodDisruptionBudget');
  t.is(budgets.length, DEPLOYMENTS.length, 'one budget per Deployment, no other');
  for (const name of DEPLOYMENTS) {
    const deployment = rendered.deployment(name);
    const own = budgets.filter((pdb) => labelSelectorMatches(pdb.spec?.selector, podLabels(deployment)));
    t.is(own.length, 1, `${name}: one PodDisruptionBudget`);
    const spec = own[0]?.spec;
    for (const other of DEPLOYMENTS.filter((d) => d !== name)) {
      t.false(labelSelectorMatches(spec?.selector, podLabels(rendered.deployment(other))), `${name}'s budget does not select ${other}`);
    }
    t.false(labelSelectorMatches(spec?.selector, rendered.job(MIGRATE_JOB).spec?.template.metadata?.labels ?? {}), `${name}'s budget does not select the migrate Job`);
    t.is(spec?.unhealthyPodEvictionPolicy, 'AlwaysAllow', `${name}: an unready pod never blocks a node drain`);
    // The fewest replicas there may be: the autoscaler's minimum.
    const scaler = rendered
      .all<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler')
      .find((hpa) => hpa.spec?.scaleTargetRef.kind === 'Deployment' && hpa.spec.scaleTargetRef.name === name);
    const replicas = Math.min(deployment.spec?.replicas ?? Infinity, scaler?.spec?.minReplicas ?? 1);
    // A budget is a whole number of pods or a percentage of them, which Kubernetes rounds up.
    const podsOf = (value: number | string): number | undefined => {
      if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
      const percent = /^(\d+)%$/.exec(value)?.[1];
      return percent === undefined || Number(percent) > 100 ? undefined : Math.ceil((Number(percent) * replicas) / 100);
    };
    const { minAvailable, maxUnavailable } = spec ?? {};
    t.true((minAvailable === undefined) !== (maxUnavailable === undefined), `${name}: exactly one of minAvailable and maxUnavailable`);
    const value = minAvailable ?? maxUnavailable;
    const pods = value === undefined ? undefined : podsOf(value);
    if (pods === undefined) {
      t.fail(`${name}: ${JSON.stringify(value)} is neither a whole number of pods nor a percentage (/^\\d+%$/, at most 100%)`);
      continue;
    }
    // Of `replicas` pods, at least one may go (a minAvailable equal to the replica count would block
    // every node drain) and at least one stays.
    const mayGo = minAvailable === undefined ? Math.min(pods, replicas) : replicas - pods;
    t.true(mayGo >= 1, `${name}: ${JSON.stringify(spec)} lets at least one of ${replicas} go`);
    t.true(replicas - mayGo >= 1, `${name}: ${JSON.stringify(spec)} keeps at least one of ${replicas}`);
  }
});

eachLayer('every Deployment rolls one new ready pod in before an old one goes, and spreads its pods over nodes', (t, rendered) => {
  for (const name of DEPLOYMENTS) {
    const deployment = rendered.deployment(name);
    t.is(deployment.spec?.strategy?.type, 'RollingUpdate', `${name}: RollingUpdate`);
    t.is(deployment.spec?.strategy?.rollingUpdate?.maxUnavailable, 0, `${name}: maxUnavailable 0`);
    t.true(Number(deployment.spec?.strategy?.rollingUpdate?.maxSurge ?? 0) >= 1, `${name}: maxSurge ≥ 1`);
    const spread = deployment.spec?.template.spec?.topologySpreadConstraints ?? [];
    t.true(
      spread.some((constraint) => constraint.topologyKey === 'kubernetes.io/hostname' && labelSelectorMatches(constraint.labelSelector, podLabels(deployment))),
      `${name}: spread over nodes`,
    );
  }
});

eachLayer('every Deployment\'s container has startup, readiness and liveness probes, and CPU and memory requests and limits', (t, rendered) => {
  for (const name of DEPLOYMENTS) {
    const container = app(rendered.deployment(name));
    for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
      const probe = container[kind];
      t.truthy(probe?.grpc ?? probe?.httpGet ?? probe?.tcpSocket ?? probe?.exec, `${name}: ${kind}`);
      if (probe) t.truthy(probePort(container, probe) ?? probe.exec, `${name}: ${kind} names a port of the container`);
    }
    for (const bound of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) t.truthy(container.resources?.[bound]?.[resource], `${name}: resources.${bound}.${resource}`);
    }
  }
});

eachLayer('dms-svc shares its files on a ReadWriteMany claim and rolls its replicas one by one (no Recreate)', (t, rendered) => {
  const config = rendered.config().data;
  const dms = rendered.deployment('dms-svc');
  const mount = app(dms).volumeMounts?.find((m) => m.mountPath === config.DMS_STORAGE_DIR);
  const claim = dms.spec?.template.spec?.volumes?.find((v) => v.name === mount?.name)?.persistentVolumeClaim?.claimName ?? '';
  const pvc = rendered.one<IPersistentVolumeClaim>('PersistentVolumeClaim', claim);
  t.deepEqual(pvc.spec?.accessModes, ['ReadWriteMany'], 'every replica mounts it, on any node');
  t.is(dms.spec?.strategy?.type, 'RollingUpdate', 'old and new replicas share the volume during a rollout');
});

// ---------------------------------------------------------------------------------------------
// Per layer

test('base: carries no Secret (only references platform-secrets)', (t) => {
  const rendered = render('base');
  const secrets = rendered.all<ISecret>('Secret');
  t.deepEqual(secrets.filter((secret) => secret.data || secret.stringData).map((secret) => secret.metadata?.name), [], 'no Secret with data');
  t.is(secrets.length, 0, 'no Secret at all');
});

test('production: APP_ENV=production, ALLOWED_ORIGINS set, no Secret rendered, mutual TLS, 3 to 10 gateways on CPU and request rate', (t) => {
  const rendered = render('production');
  const { data } = rendered.config();
  t.is(data.APP_ENV, 'production');
  t.not(data.ALLOWED_ORIGINS ?? '', '', 'production refuses to start without ALLOWED_ORIGINS');
  t.is(rendered.all<ISecret>('Secret').length, 0, 'the operator creates platform-secrets; nothing secret comes from git');
  for (const variable of TLS_VARIABLES) t.truthy(data[variable], `${variable}: the grpc-mtls component is included`);
  const hpa = rendered
    .all<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler')
    .find((scaler) => scaler.spec?.scaleTargetRef.name === GATEWAY)?.spec;
  t.true((hpa?.minReplicas ?? 1) >= 3, 'never fewer than 3 gateways');
  t.true((hpa?.maxReplicas ?? 0) > (hpa?.minReplicas ?? 1), 'room to scale');
  t.is(hpa?.metrics?.find((metric) => metric.type === 'Resource')?.resource?.name, 'cpu', 'scales on CPU');
  const rate = hpa?.metrics?.find((metric) => metric.type === 'Pods')?.pods;
  t.is(rate?.metric.name, 'http_requests_per_second', 'and on request rate per pod (prometheus-adapter rule in deploy/README.md)');
  t.is(rate?.target.type, 'AverageValue');
  t.true(Number(rate?.target.averageValue) > 0);
});

test('test: APP_ENV=test (migrates at start, generates no secret), mutual TLS as in production, its own namespace', (t) => {
  const rendered = render('test');
  const { data } = rendered.config();
  t.is(data.APP_ENV, 'test');
  for (const variable of TLS_VARIABLES) t.truthy(data[variable], `${variable}: the grpc-mtls component is included`);
  const namespaces = new Set(rendered.objects.filter((object) => object.kind !== 'Namespace').map((object) => object.metadata?.namespace));
  t.deepEqual([...namespaces], ['platform-test']);
  t.deepEqual(rendered.all<K8sObject>('Namespace').map((namespace) => namespace.metadata?.name), ['platform-test']);
  t.not(rendered.all<K8sObject>('Namespace')[0]?.metadata?.name, render('development').all<K8sObject>('Namespace')[0]?.metadata?.name, 'not the development namespace');
});

test('development: APP_ENV=development, plaintext gRPC', (t) => {
  const { data } = render('development').config();
  t.is(data.APP_ENV, 'development');
  for (const variable of TLS_VARIABLES) t.is(data[variable], undefined, variable);
});

for (const overlay of GENERATED_SECRETS) {
  test(`${overlay}: the one Secret is generated from secrets.env (here its committed example) with every key`, (t) => {
    const rendered = render(overlay);
    const secrets = rendered.all<ISecret>('Secret');
    t.is(secrets.length, 1);
    t.regex(secrets[0]?.metadata?.name ?? '', new RegExp(`^${SECRET_NAME}-[a-z0-9]+$`), 'generated name with content hash');
    const data = secrets[0]?.data ?? {};
    for (const key of SECRET_KEYS) t.true(key in data, `Secret has ${key}`);
    // The test renders with secrets.env = secrets.env.example: the Secret carries exactly those values.
    const example = envFile(readFileSync(join(DEPLOY, `overlays/${overlay}/secrets.env.example`), 'utf8'));
    const decoded = Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
    t.deepEqual(decoded, Object.fromEntries(example));
  });
}

eachLayer('no Secret value is rendered from the repository: a Secret only from an overlay\'s secretGenerator, and no secret in any other object', (t, rendered) => {
  const secrets = rendered.all<ISecret>('Secret');
  if (!(GENERATED_SECRETS as readonly string[]).includes(rendered.layer)) t.is(secrets.length, 0, 'no Secret: the operator creates it');
  for (const secret of secrets) t.is(secret.stringData, undefined, `${secret.metadata?.name}: no stringData`);
  // Anything else that carries a secret's name as a key, or a value shaped like one of the keys the
  // platform requires (64+ or exactly 32 hexadecimal characters, a PEM block), holds a secret.
  for (const object of rendered.objects.filter((o) => o.kind !== 'Secret')) {
    const text = JSON.stringify(object);
    t.notRegex(text, /-----BEGIN [A-Z ]+-----/, `${object.kind} ${object.metadata?.name}: no PEM block`);
    t.notRegex(text, /"[0-9a-fA-F]{64,}"|"[0-9a-fA-F]{32}"/, `${object.kind} ${object.metadata?.name}: no hexadecimal key`);
  }
});

test('secrets.env is git-ignored and the committed example holds placeholders only', (t) => {
  for (const overlay of ['development', 'test', 'production']) {
    const path = `deploy/overlays/${overlay}/secrets.env`;
    const ignored = spawnSync('git', ['check-ignore', '--no-index', '--quiet', path], { cwd: ROOT });
    t.is(ignored.status, 0, `${path} is git-ignored`);
  }
  for (const overlay of GENERATED_SECRETS) {
    const values = envFile(readFileSync(join(DEPLOY, `overlays/${overlay}/secrets.env.example`), 'utf8'));
    for (const key of SECRET_KEYS) t.true(values.has(key), `${overlay}: the example lists ${key}`);
    // Real-looking keys would be accepted at start-up; the placeholders are refused on purpose.
    t.notRegex(values.get('JWT_SECRET') ?? '', /^[0-9a-fA-F]{64,}$/, `${overlay}: JWT_SECRET is a placeholder`);
    t.notRegex(values.get('CORE_API_KEY') ?? '', /^[0-9a-fA-F]{32}$/, `${overlay}: CORE_API_KEY is a placeholder`);
    t.notRegex(values.get('DMS_URL_SECRET') ?? '', /^[0-9a-fA-F]{32,}$/, `${overlay}: DMS_URL_SECRET is a placeholder`);
    // the datastore egress policies open these ports
    t.is(new URL(values.get('DATABASE_URL') ?? '').port || '5432', String(POSTGRES_PORT), `${overlay}: DATABASE_URL's port`);
    t.is(new URL(values.get('REDIS_URL') ?? '').port || '6379', String(REDIS_PORT), `${overlay}: REDIS_URL's port`);
  }
});

test('the image holds the migrate Job\'s command and what it imports from scripts/', (t) => {
  // The Dockerfile leaves scripts/ out of the image but for these; the services' folders are copied whole.
  const files: string[] = [];
  const visit = (file: string): void => {
    if (files.includes(file)) return;
    files.push(file);
    const source = readFileSync(join(ROOT, file), 'utf8');
    for (const [, specifier] of source.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = join(dirname(file), specifier!);
      if (target.startsWith('scripts/')) visit(target);
    }
  };
  visit('scripts/migrate.ts');
  const dockerfile = readFileSync(join(DEPLOY, 'Dockerfile'), 'utf8');
  const ignore = readFileSync(join(DEPLOY, 'Dockerfile.dockerignore'), 'utf8').split('\n');
  for (const file of files) {
    t.regex(dockerfile, new RegExp(`^COPY ${file.replace(/[.]/g, '\\.')} ${dirname(file)}/$`, 'm'), `the Dockerfile copies ${file}`);
    t.true(ignore.includes(`!${file}`), `Dockerfile.dockerignore lets ${file} into the build context`);
  }
  t.true(files.length >= 2, `found ${files.join(', ')}`);
});

test('the image is built FROM an exact Node release, the one the suite runs on (package.json\'s node), not a floating tag', (t) => {
  const dockerfile = readFileSync(join(DEPLOY, 'Dockerfile'), 'utf8');
  const froms = dockerfile.split('\n').filter((line) => /^FROM\s/i.test(line));
  t.true(froms.length >= 1, 'a FROM line');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  for (const from of froms) {
    const match = /^FROM\s+node:(\d+\.\d+\.\d+)-[a-z]+-slim(@sha256:[0-9a-f]{64})?(\s+AS\s+\S+)?$/i.exec(from.trim());
    t.truthy(match, `${from}: node:<major.minor.patch>-<debian>-slim, optionally @sha256:<digest>; no latest, no bare major`);
    t.is(match?.[1], pkg.devDependencies.node, `${from}: the Node release package.json pins for the tests`);
  }
});

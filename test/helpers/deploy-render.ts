/**
 * Renders deploy/ (base and each overlay) with `kubectl kustomize` for the deploy-*.test.ts files
 * (what the deployment is made of is deploy-layout.ts, questions asked of its objects
 * deploy-objects.ts, NetworkPolicy evaluation deploy-network-policy.ts). The development overlay reads the git-ignored secrets.env; it
 * is rendered from a temporary copy of deploy/ in which secrets.env is the committed
 * secrets.env.example, so no real secret is ever read. kubectl is required: without it every test
 * fails and says so.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { CLAMAV, DEPLOY, DEPLOYMENTS, GENERATED_SECRETS, LAYERS, MIGRATE_JOB, VARIANTS, type Layer } from './deploy-layout.ts';

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

export function only(containers: IContainer[] | undefined, owner: string): IContainer {
  if (containers?.length !== 1) throw new Error(`${owner}: expected one container, found ${containers?.length ?? 0}`);
  return containers[0]!;
}

/** A layer-named test per layer. */
export function eachLayer(title: string, check: (t: ExecutionContext, rendered: Rendered) => void | Promise<void>): void {
  for (const layer of LAYERS) {
    test(`${layer}: ${title}`, async (t) => {
      await check(t, render(layer));
    });
  }
}

/**
 * The PostgreSQL connections a rendered layer may open at once (deploy/README.md, "Connection
 * budget"; docs/adr/0147-a-connection-budget.md): every pod that reaches the database, at the most
 * pods it can have (its autoscaler's maximum and a rolling update's surge), times the connections
 * of one pod (its pools as config/database-pools.ts reads them from the pod's environment, the tus
 * locks' pool where it is defined, the backup's from scripts/lib/backup-run.ts), and the limits
 * they meet: PgBouncer's and PostgreSQL's, as the CloudNativePG component declares them.
 */
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { ICronJob } from 'kubernetes-models/batch/v1/CronJob';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { databasePoolsOf, type PoolRole } from '@platform/service-kit/config/database-pools.ts';
import { BACKUP_CONNECTIONS } from '../../scripts/lib/backup-run.ts';
import { MIGRATE_JOB } from './deploy-layout.ts';
import { only, type K8sObject, type Rendered } from './deploy-render.ts';

/**
 * Connections PostgreSQL keeps beyond the budget, besides its superuser slots: the operator's
 * instance manager (its status and metrics queries), a person's psql, an ad-hoc dump.
 */
export const DATABASE_RESERVE = 10;

/** Where a pod's DATABASE_URL leads: the pooler, the primary past it, or a database the manifests do not name. */
export type Route = 'pooler' | 'primary' | 'outside';

export interface Consumer {
  /** `core-svc`, `Job migrate`, `CronJob backup`. */
  name: string;
  /** What one pod holds, by purpose (`ORM 10`, `migration lock 1`), and where each pool's connections go. */
  pools: Pool[];
  perPod: number;
  /** The most pods at once: the autoscaler's maximum (or replicas) and the rolling update's surge; a Job's parallelism. */
  pods: number;
}

export interface Pool {
  purpose: string;
  size: number;
  route: Route;
}

export interface Cluster extends K8sObject {
  spec: { instances: number; postgresql?: { parameters?: Record<string, string> } };
}
export interface Pooler extends K8sObject {
  spec: {
    cluster: { name: string };
    instances?: number;
    type?: string;
    deploymentStrategy?: { rollingUpdate?: { maxSurge?: number | string } };
    pgbouncer: { poolMode?: string; parameters?: Record<string, string> };
  };
}

/** The environment a container starts with, as far as the manifests say: the ConfigMap it reads whole, then its own literal values. */
function environment(rendered: Rendered, container: IContainer): Record<string, string> {
  const config = rendered.config();
  const fromMap = (container.envFrom ?? []).some((source) => source.configMapRef?.name === config.metadata?.name) ? config.data : {};
  const own = Object.fromEntries((container.env ?? []).flatMap((entry) => (entry.value !== undefined ? [[entry.name, entry.value]] : [])));
  return { ...fromMap, ...own };
}

/**
 * Whom a container's database URL reaches, given the layer's Cluster and Pooler (if any); undefined:
 * it has none. `asOwner` (the migrator, the dump): DATABASE_OWNER_URL, which they connect with when
 * given (docs/adr/0150-a-serving-role-apart-from-the-owner.md), else DATABASE_URL.
 */
function routeOf(rendered: Rendered, container: IContainer, asOwner = false): Route | undefined {
  const owner = asOwner ? container.env?.find((entry) => entry.name === 'DATABASE_OWNER_URL') : undefined;
  const url = owner ?? container.env?.find((entry) => entry.name === 'DATABASE_URL');
  const readsSecretWhole = (container.envFrom ?? []).some((source) => source.secretRef);
  if (!url) return readsSecretWhole ? 'outside' : undefined;
  const clusters = rendered.all<Cluster>('Cluster').map((cluster) => cluster.metadata?.name);
  const poolers = rendered.all<Pooler>('Pooler').map((pooler) => pooler.metadata?.name);
  if (url.value !== undefined) {
    const host = /@([^:/]+)/.exec(url.value)?.[1];
    if (poolers.includes(host)) return 'pooler';
    if (clusters.some((cluster) => host === `${cluster}-rw`)) return 'primary';
    return 'outside';
  }
  const ref = url.valueFrom?.secretKeyRef;
  // the operator's application Secret: its uri names <cluster>-rw
  if (ref && ref.key === 'uri' && clusters.some((cluster) => ref.name === `${cluster}-app`)) return 'primary';
  return 'outside';
}

/** The role a container's command runs: a service, a worker, the migrator; undefined: none of the platform's database processes. */
function roleOf(container: IContainer): PoolRole | undefined {
  const command = (container.command ?? []).join(' ');
  if (/\/src\/worker\.ts$/.test(command)) return 'worker';
  if (/-svc\/src\/main\.ts$/.test(command)) return 'service';
  if (/scripts\/migrate\.ts up$/.test(command)) return 'migrate';
  return undefined;
}

/** Extra pods a rolling update may add: maxSurge, a number or a percentage of `replicas` rounded up (25 % when unset). */
function surge(maxSurge: number | string | undefined, replicas: number): number {
  const value = maxSurge ?? '25%';
  if (typeof value === 'number') return value;
  const percent = /^(\d+)%$/.exec(value);
  if (!percent) throw new Error(`maxSurge ${value}: neither a number nor a percentage`);
  return Math.ceil((Number(percent[1]) * replicas) / 100);
}

function deploymentPods(rendered: Rendered, deployment: IDeployment): number {
  const name = deployment.metadata?.name;
  const autoscaler = rendered
    .all<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler')
    .find((hpa) => hpa.spec?.scaleTargetRef.kind === 'Deployment' && hpa.spec.scaleTargetRef.name === name);
  const replicas = autoscaler?.spec?.maxReplicas ?? deployment.spec?.replicas ?? 1;
  const strategy = deployment.spec?.strategy;
  return replicas + (strategy?.type === 'Recreate' ? 0 : surge(strategy?.rollingUpdate?.maxSurge, replicas));
}

/** A process's pools, all on DATABASE_URL: the migration lock's connection too (transaction-scoped, docs/adr/0146). */
function poolsOf(rendered: Rendered, container: IContainer, role: PoolRole): Pool[] {
  const pools = databasePoolsOf(environment(rendered, container), role);
  const route = routeOf(rendered, container, role === 'migrate') ?? 'outside';
  return [
    { purpose: 'ORM', size: pools.orm, route },
    ...(pools.jobs > 0 ? [{ purpose: 'queue', size: pools.jobs, route }] : []),
    { purpose: 'migration lock', size: pools.migrationLock, route },
  ];
}

function consumer(name: string, pools: Pool[], pods: number): Consumer {
  return { name, pools, perPod: pools.reduce((sum, pool) => sum + pool.size, 0), pods };
}

/** Every pod template of the layer that reaches PostgreSQL, with its connections. A Deployment that runs a platform process without a database URL (the gateway) holds none. */
export function consumers(rendered: Rendered): Consumer[] {
  const found: Consumer[] = [];
  for (const deployment of rendered.all<IDeployment>('Deployment')) {
    const container = only(deployment.spec?.template.spec?.containers, deployment.metadata?.name ?? 'a Deployment');
    const role = roleOf(container);
    const route = routeOf(rendered, container);
    if (!route) continue;
    if (!role)
      throw new Error(`Deployment ${deployment.metadata?.name} reaches PostgreSQL, but runs no process the budget knows (${container.command?.join(' ')})`);
    const name = deployment.metadata?.name ?? '';
    found.push(consumer(name, poolsOf(rendered, container, role), deploymentPods(rendered, deployment)));
  }
  const job = rendered.job(MIGRATE_JOB);
  const migrator = only(job.spec?.template.spec?.containers, `Job ${MIGRATE_JOB}`);
  found.push(consumer(`Job ${MIGRATE_JOB}`, poolsOf(rendered, migrator, 'migrate'), job.spec?.parallelism ?? 1));
  for (const cronJob of rendered.all<ICronJob>('CronJob')) {
    const container = only(cronJob.spec?.jobTemplate.spec?.template.spec?.containers, `CronJob ${cronJob.metadata?.name}`);
    const route = routeOf(rendered, container, true);
    if (!route) continue;
    if (cronJob.spec?.concurrencyPolicy !== 'Forbid') throw new Error(`CronJob ${cronJob.metadata?.name}: runs may overlap, the budget cannot bound them`);
    found.push(
      consumer(`CronJob ${cronJob.metadata?.name}`, [{ purpose: 'backup', size: BACKUP_CONNECTIONS, route }], cronJob.spec.jobTemplate.spec?.parallelism ?? 1),
    );
  }
  return found;
}

/** PostgreSQL's default where the Cluster leaves a parameter unset. */
const POSTGRES_DEFAULTS = { max_connections: 100, superuser_reserved_connections: 3, reserved_connections: 0 };
/** PgBouncer's defaults where the Pooler leaves a parameter unset. */
const PGBOUNCER_DEFAULTS = { max_client_conn: 100, default_pool_size: 20, reserve_pool_size: 0 };

export interface Budget {
  /** Client connections of the pooler's clients, all at once, against one PgBouncer's max_client_conn (the Service may send them all to one). */
  clients: { asked: number; allowed: number };
  /** Server connections on PostgreSQL: the poolers' (instances and surge, each default_pool_size and its reserve), and every pod's straight to the primary. */
  server: { poolers: number; perPooler: number; pooled: number; direct: number; asked: number; maxConnections: number; reserved: number; allowed: number };
}

/** The budget of a layer with one Cluster and one Pooler in front of its primary. */
export function budget(rendered: Rendered): Budget {
  const cluster = rendered.all<Cluster>('Cluster');
  const pooler = rendered.all<Pooler>('Pooler');
  if (cluster.length !== 1 || pooler.length !== 1)
    throw new Error(`${rendered.layer}: expected one Cluster and one Pooler, found ${cluster.length} and ${pooler.length}`);
  const params = cluster[0]!.spec.postgresql?.parameters ?? {};
  const postgres = (name: keyof typeof POSTGRES_DEFAULTS) => Number(params[name] ?? POSTGRES_DEFAULTS[name]);
  const { spec } = pooler[0]!;
  const bouncer = (name: keyof typeof PGBOUNCER_DEFAULTS) => Number(spec.pgbouncer.parameters?.[name] ?? PGBOUNCER_DEFAULTS[name]);
  const all = consumers(rendered);
  const outside = all.filter((c) => c.pools.some((pool) => pool.route === 'outside')).map((c) => c.name);
  if (outside.length > 0) throw new Error(`${rendered.layer}: ${outside.join(', ')} reach a database the manifests do not name`);
  const total = (route: Route) => sumOf(all, route);
  const instances = spec.instances ?? 1;
  const poolers = instances + surge(spec.deploymentStrategy?.rollingUpdate?.maxSurge, instances);
  const perPooler = bouncer('default_pool_size') + bouncer('reserve_pool_size');
  const pooled = poolers * perPooler;
  const direct = total('primary');
  const maxConnections = postgres('max_connections');
  const reserved = postgres('superuser_reserved_connections') + postgres('reserved_connections') + DATABASE_RESERVE;
  return {
    clients: { asked: total('pooler'), allowed: bouncer('max_client_conn') },
    server: { poolers, perPooler, pooled, direct, asked: pooled + direct, maxConnections, reserved, allowed: maxConnections - reserved },
  };
}

/** The connections `consumers` open at most on `route`: each pool's size there, times its pods. */
export function sumOf(consumers: Consumer[], route: Route): number {
  return consumers.reduce((sum, c) => sum + c.pods * c.pools.filter((pool) => pool.route === route).reduce((n, pool) => n + pool.size, 0), 0);
}

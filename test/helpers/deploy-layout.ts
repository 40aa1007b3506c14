/**
 * What the platform's deployment (deploy/) is made of, as the deploy-*.test.ts files check it: the
 * layers, the workloads and their addresses, ports, Secret and ConfigMap keys.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DEPLOY = join(ROOT, 'deploy');

export const LAYERS = ['base', 'development', 'test', 'production', 'production-gateway-api', 'production-s3'] as const;
/**
 * Variants of an overlay that deploy/README.md tells the operator how to make, rendered from the
 * temporary copy: the overlay with one line of its kustomization.yaml replaced.
 */
export const VARIANTS = {
  // "A way in": the Gateway API component in place of the Ingress one
  'production-gateway-api': { overlay: 'production', replace: '- ../../components/ingress\n', with: '- ../../components/gateway-api\n' },
  // "Files on object storage": the S3 component beside the others
  'production-s3': { overlay: 'production', replace: '- ../../components/clamav\n', with: '- ../../components/clamav\n  - ../../components/s3-storage\n' },
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
/** Each service's worker (its background work on the job queue) and its entry; no Service, no caller, PostgreSQL alone. */
export const WORKERS = { 'core-worker': 'core-svc/src/worker.ts', 'bpm-worker': 'bpm-svc/src/worker.ts', 'dms-worker': 'dms-svc/src/worker.ts' } as const;
export type Worker = keyof typeof WORKERS;
export const DEPLOYMENTS = [GATEWAY, ...(Object.keys(GRPC_SERVICES) as GrpcService[]), ...(Object.keys(WORKERS) as Worker[])];
/** The entry each Deployment's container runs (after `node --import <telemetry register>`). */
export function entryOf(deployment: string): string {
  return WORKERS[deployment as Worker] ?? `${deployment}/src/main.ts`;
}
/** The clamd Deployment of deploy/components/clamav (production): not one of the platform's processes, checked by test/deploy-clamav.test.ts. */
export const CLAMAV = 'clamav';
/** clamd's port, its Service's and CLAMD_ADDRESS's. */
export const CLAMD_PORT = 3310;
/** Each service's Prometheus port variable; the container port is named `metrics`. The gateway's /metrics is on MANAGEMENT_PORT. */
export const METRICS_PORTS = {
  'core-svc': 'CORE_METRICS_PORT',
  'bpm-svc': 'BPM_METRICS_PORT',
  'dms-svc': 'DMS_METRICS_PORT',
  'core-worker': 'CORE_WORKER_METRICS_PORT',
  'bpm-worker': 'BPM_WORKER_METRICS_PORT',
  'dms-worker': 'DMS_WORKER_METRICS_PORT',
} as const;
/** The namespace Prometheus scrapes from (NetworkPolicy metrics-from-monitoring). */
export const MONITORING_NAMESPACE = 'monitoring';
/** The Job that runs the services' migrations before a rollout (production services do not migrate). */
export const MIGRATE_JOB = 'migrate';
export const SECRET_NAME = 'platform-secrets';
/**
 * The Secret with DATABASE_OWNER_URL, the schemas' owner, read by the migrate Job and the backup
 * alone (optional: without it DATABASE_URL's role does everything); never rendered from git.
 */
export const OWNER_SECRET_NAME = 'platform-db-owner';
/** The serving role's basic-auth Secret under components/cloudnative-pg (its managed role platform_svc); never rendered from git. */
export const SERVING_SECRET_NAME = 'platform-db-serving';
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
/** The sentinels' port of REDIS_SENTINELS (docs/adr/0142-redis-behind-sentinel.md), which the gateway's Redis egress allows too. */
export const REDIS_SENTINEL_PORT = 26379;
export const DNS_PORT = 53;
export const SECRET_KEYS = [
  'JWT_SECRET',
  'CORE_API_KEY',
  'DMS_URL_SECRET',
  'GATEWAY_CALL_KEY',
  'CONSOLE_CSRF_SECRET',
  'DMS_FILE_PORT_SECRET',
  'DATABASE_URL',
  'REDIS_URL',
];
/**
 * The keys of the Secret the gateway reads, each by reference: not DATABASE_URL (it holds no
 * database credential), not JWT_SECRET (it holds no signing key,
 * docs/adr/0138-an-edge-without-the-signing-secret.md).
 */
export const GATEWAY_SECRET_KEYS = [
  'CORE_API_KEY',
  'DMS_URL_SECRET',
  'GATEWAY_CALL_KEY',
  'CONSOLE_CSRF_SECRET',
  'DMS_FILE_PORT_SECRET',
  'REDIS_URL',
  'REDIS_PASSWORD',
  'REDIS_SENTINEL_PASSWORD',
];
/**
 * The gateway's keys that may be missing from the Secret: Redis's, as development may run without
 * it, and a deployment under Sentinel gives no REDIS_URL and maybe no passwords; the process refuses
 * what its configuration lacks.
 */
export const OPTIONAL_GATEWAY_SECRET_KEYS = ['REDIS_URL', 'REDIS_PASSWORD', 'REDIS_SENTINEL_PASSWORD'];
export const CONFIG_KEYS = [
  'APP_ENV',
  'MANAGEMENT_PORT',
  'CORE_METRICS_PORT',
  'BPM_METRICS_PORT',
  'DMS_METRICS_PORT',
  'CORE_WORKER_METRICS_PORT',
  'BPM_WORKER_METRICS_PORT',
  'DMS_WORKER_METRICS_PORT',
  'ALLOWED_ORIGINS',
  'IP_FILTER_ENABLED',
  'TRUST_PROXY',
  'RATE_LIMIT_PUBLIC',
  'RATE_LIMIT_API_KEY',
  'RATE_LIMIT_JWT',
  'REDIS_SENTINELS',
  'REDIS_SENTINEL_NAME',
  'CORE_GRPC_ADDR',
  'BPM_GRPC_ADDR',
  'DMS_GRPC_ADDR',
  'DMS_HTTP_ADDR',
  'DMS_STORAGE_DIR',
  'DMS_MAX_UPLOAD_BYTES',
  'DMS_URL_TTL_SECONDS',
];

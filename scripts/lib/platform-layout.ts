import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (scripts/lib → ../..). */
export const ROOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export type WorkerName = 'core-worker' | 'bpm-worker' | 'dms-worker';
export type ServiceName = 'core-svc' | 'bpm-svc' | 'dms-svc' | 'gateway' | WorkerName;

/** The platform's processes: the three services, then the gateway (the order they are stopped in reversed). */
export const SERVICE_NAMES: readonly ServiceName[] = ['core-svc', 'bpm-svc', 'dms-svc', 'gateway'];

/**
 * Each service's worker (`<service>/src/worker.ts`): its background work on the job queue
 * (libs/service-kit/src/jobs), once across the cluster however many run.
 */
export const WORKER_NAMES: readonly WorkerName[] = ['core-worker', 'bpm-worker', 'dms-worker'];

export const DEFAULT_ENTRIES: Readonly<Record<ServiceName, string>> = {
  'core-svc': join(ROOT_DIR, 'core-svc/src/main.ts'),
  'bpm-svc': join(ROOT_DIR, 'bpm-svc/src/main.ts'),
  'dms-svc': join(ROOT_DIR, 'dms-svc/src/main.ts'),
  gateway: join(ROOT_DIR, 'gateway/src/main.ts'),
  'core-worker': join(ROOT_DIR, 'core-svc/src/worker.ts'),
  'bpm-worker': join(ROOT_DIR, 'bpm-svc/src/worker.ts'),
  'dms-worker': join(ROOT_DIR, 'dms-svc/src/worker.ts'),
};

/**
 * The module each process is started with (`--import`), before its entry: it starts tracing when
 * an OTLP endpoint is configured and does nothing else otherwise (libs/kit/src/telemetry/register.ts).
 */
export const TELEMETRY_REGISTER = join(ROOT_DIR, 'libs/kit/src/telemetry/register.ts');

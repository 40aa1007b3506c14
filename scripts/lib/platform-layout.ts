import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (scripts/lib → ../..). */
export const ROOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export type ServiceName = 'core-svc' | 'bpm-svc' | 'dms-svc' | 'gateway';

/** The platform's processes: the three services, then the gateway (the order they are stopped in reversed). */
export const SERVICE_NAMES: readonly ServiceName[] = ['core-svc', 'bpm-svc', 'dms-svc', 'gateway'];

export const DEFAULT_ENTRIES: Readonly<Record<ServiceName, string>> = {
  'core-svc': join(ROOT_DIR, 'core-svc/src/main.ts'),
  'bpm-svc': join(ROOT_DIR, 'bpm-svc/src/main.ts'),
  'dms-svc': join(ROOT_DIR, 'dms-svc/src/main.ts'),
  gateway: join(ROOT_DIR, 'gateway/src/main.ts'),
};

/**
 * The module each process is started with (`--import`), before its entry: it starts tracing when
 * an OTLP endpoint is configured and does nothing else otherwise (libs/kit/src/telemetry/register.ts).
 */
export const TELEMETRY_REGISTER = join(ROOT_DIR, 'libs/kit/src/telemetry/register.ts');

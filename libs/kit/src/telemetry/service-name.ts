/** The processes of the platform, each named after its folder. */
const PROCESS_NAMES = ['gateway', 'core-svc', 'bpm-svc', 'dms-svc'] as const;

/**
 * The `service.name` of this process's spans: `OTEL_SERVICE_NAME` when set (the SDK reads it
 * itself, so this returns undefined), else the folder of the entry script (`gateway/src/main.ts` →
 * `gateway`), a service's worker named after it (`dms-svc/src/worker.ts` → `dms-worker`), else `platform`.
 *
 * @example
 * defaultServiceName('/app/dms-svc/src/main.ts', {}) // 'dms-svc'
 */
export function defaultServiceName(entry: string | undefined, env: Record<string, string | undefined> = process.env): string | undefined {
  if (env.OTEL_SERVICE_NAME?.trim()) return undefined;
  const parts = (entry ?? '').split(/[\\/]/);
  const folder = parts[parts.length - 3];
  const named = PROCESS_NAMES.find((name) => name === folder);
  if (named && named !== 'gateway' && parts[parts.length - 1] === 'worker.ts') return named.replace(/-svc$/, '-worker');
  return named ?? 'platform';
}

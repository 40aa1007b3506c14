import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';

/** The console's path of a record (`/branch/42`), by the resource's key. */
export function recordPath(resource: ConsoleResource, record: Record<string, unknown>, suffix = ''): string {
  return `/${resource.path}/${encodeURIComponent(String(record[resource.key]))}${suffix}`;
}

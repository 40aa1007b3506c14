import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';

/** What names a record to people: its display field (a partner's name), else its key. */
export function recordName(resource: ConsoleResource, record: Record<string, unknown>): string {
  const name = record[resource.display];
  return name !== undefined && name !== null && name !== '' ? String(name) : String(record[resource.key] ?? '');
}

import { useOne } from '@refinedev/core';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { useAccess } from '../shell/access.tsx';
import { useManifest } from '../app/manifest.tsx';
import { referenceTarget } from './fields.ts';

/** How long a referenced record's name is taken as current: a list page asks once per record. */
const REFERENCE_FRESH_MS = 5 * 60_000;

/**
 * A reference shown by the referenced record's display field (a branch's partner by its name):
 * `GET /api/{target}/{key}` through the query cache, so a page of rows naming one partner asks once.
 * The raw value when the target cannot be read (no role, no get) or is gone.
 */
export function ReferenceValue({ field, value }: { field: ConsoleField; value: string | number }) {
  const target = referenceTarget(field, useManifest().resources);
  const access = useAccess();
  const readable = target !== undefined && access.can(`${target.path}:read`);
  const { result } = useOne({
    resource: target?.path ?? '',
    id: value,
    queryOptions: { enabled: readable, staleTime: REFERENCE_FRESH_MS, retry: false },
    meta: { background: true },
  });
  const name = target && result ? result[target.display] : undefined;
  if (name === undefined || name === null || name === '' || String(name) === String(value)) return <>{String(value)}</>;
  return (
    <>
      {String(name)} <span className="muted">#{String(value)}</span>
    </>
  );
}

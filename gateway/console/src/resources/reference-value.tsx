import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { useAccess } from '../shell/access.tsx';
import { useManifest } from './manifest.tsx';
import { referenceName } from './reference-name.ts';
import { referenceTarget } from './fields.ts';

/** How long a referenced record's name is taken as current: a list page asks once per record. */
const REFERENCE_FRESH_MS = 5 * 60_000;

/**
 * A reference shown by the referenced record's display field (a branch's partner by its name), as a
 * link to that record's page: `GET /api/{target}/{key}` through the query cache, so a page of rows
 * naming one partner asks once. The raw value, not a link, when the target cannot be read (no role,
 * no get); the value as the link's text while the name loads or when the record is gone.
 *
 * A plain query, not Refine's useOne: each useOne matches the address against every resource's
 * routes several times when it mounts, and a list page mounts forty of these
 * (docs/adr/0099-the-console-s-speed-fewer-hooks.md).
 */
export function ReferenceValue({ field, value }: { field: ConsoleField; value: string | number }) {
  const target = referenceTarget(field, useManifest().resources);
  const access = useAccess();
  const readable = target !== undefined && access.can(`${target.path}:read`);
  const { data: record } = useQuery({
    ...referenceName(target?.path ?? '', value),
    enabled: readable,
    staleTime: REFERENCE_FRESH_MS,
    retry: false,
  });
  if (!readable) return <>{String(value)}</>;
  const name = record ? record[target.display] : undefined;
  const to = `/${target.path}/${encodeURIComponent(String(value))}`;
  if (name === undefined || name === null || name === '' || String(name) === String(value)) return <Link to={to}>{String(value)}</Link>;
  return (
    <>
      <Link to={to}>{String(name)}</Link> <span className="muted">#{String(value)}</span>
    </>
  );
}

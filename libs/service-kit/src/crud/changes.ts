import type { Row } from '../db/entity-schema.ts';
import type { Changes } from '../events/outbox.ts';
import { visibleScalars, type Resource } from '@platform/kit/resource/resource.ts';
import { toMessageValue } from '@platform/kit/resource/values.ts';

/**
 * The fields of a record that differ between `before` and `after` (rows; undefined for a create's
 * before and a delete's after), as records show them. Only the fields a record shows: write-only
 * fields (passwords), a service's own columns (hashes, token versions) and computed ones never enter
 * an event, nor do `version` and `updatedAt`/`updatedBy` (the event has its own).
 */
export function changesOf(resource: Resource, before: Row | undefined, after: Row | undefined): Changes {
  const changes: Changes = {};
  for (const [name, spec] of visibleScalars(resource)) {
    if (OWN_FIELDS.has(name) || spec.secret) continue;
    const from = before === undefined ? undefined : toMessageValue(spec, before[name]);
    const to = after === undefined ? undefined : toMessageValue(spec, after[name]);
    if (from === to || (from === undefined && to === undefined)) continue;
    changes[name] = { from: from ?? null, to: to ?? null };
  }
  return changes;
}

/** What every event says in its own columns. */
const OWN_FIELDS = new Set(['version', 'updatedAt', 'updatedBy']);

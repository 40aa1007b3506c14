/**
 * When a record's own state forbids its update or delete, declared once per resource: the field
 * that decides and the values it allows the operation in. The services refuse the rest (409
 * SVC-SYS-4004: bpm-svc's accrual hooks, dms-svc's dms-file hooks) and the console offers no
 * button for it, saying why (gateway/console/src/resources/record-lock.tsx). It imports only the
 * accrual's declaration, which imports nothing: the console's bundle loads it.
 */
import { ACCRUAL_LIFECYCLE } from './bpm/accrual-moves.ts';

export type LockedOperation = 'update' | 'delete';

/** The operation is allowed while `field` holds one of `allowedIn`. */
export interface RecordLock {
  field: string;
  allowedIn: readonly (string | boolean)[];
}

/** By resource path. */
export const RECORD_LOCKS: Readonly<Record<string, Partial<Record<LockedOperation, RecordLock>>>> = {
  accrual: {
    update: { field: 'accrualStatus', allowedIn: ACCRUAL_LIFECYCLE.editableIn },
    delete: { field: 'accrualStatus', allowedIn: ACCRUAL_LIFECYCLE.deletableIn },
  },
  'dms-file': { delete: { field: 'legalHold', allowedIn: [false] } },
};

/** The field and value that forbid `operation` on `record` of resource `path`, or undefined when it is allowed. */
export function lockOf(path: string, operation: LockedOperation, record: object): { field: string; value: unknown } | undefined {
  const lock = RECORD_LOCKS[path]?.[operation];
  if (!lock) return undefined;
  // an absent flag is false, as the column's default
  const value = (record as Record<string, unknown>)[lock.field] ?? false;
  return lock.allowedIn.some((allowed) => allowed === value) ? undefined : { field: lock.field, value };
}

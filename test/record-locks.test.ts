/**
 * The record locks (libs/contracts/src/record-locks.ts), which the services guard by and the console
 * reads to leave out the buttons they would refuse: each names a declared field of its resource, its
 * values are ones that field can hold, and the accrual's follow its lifecycle.
 */
import test from 'ava';
import { bpmResources } from '@platform/contracts/bpm/index.ts';
import { coreResources } from '@platform/contracts/core/index.ts';
import { dmsResources } from '@platform/contracts/dms/index.ts';
import { ACCRUAL_LIFECYCLE, ACCRUAL_STATES } from '@platform/contracts/bpm/accrual-moves.ts';
import { lockOf, RECORD_LOCKS } from '@platform/contracts/record-locks.ts';

const resources = [...coreResources, ...bpmResources, ...dmsResources];

test('every lock names a declared field of its resource and values that field can hold', (t) => {
  for (const [path, locks] of Object.entries(RECORD_LOCKS)) {
    const resource = resources.find((candidate) => candidate.path === path);
    if (!resource) return t.fail(`${path}: no such resource`);
    for (const [operation, lock] of Object.entries(locks)) {
      const field = (resource.fields as Record<string, { kind: string; values?: readonly string[] }>)[lock.field];
      if (!field) return t.fail(`${path} ${operation}: ${lock.field} is not a field`);
      for (const value of lock.allowedIn) {
        if (field.kind === 'boolean') t.is(typeof value, 'boolean', `${path}.${lock.field}`);
        else t.true(field.values?.includes(String(value)) ?? false, `${path}.${lock.field}: ${String(value)}`);
      }
    }
  }
});

test("the accrual's edit and delete follow its lifecycle; a file under legal hold is not deleted", (t) => {
  for (const state of ACCRUAL_STATES) {
    t.is(lockOf('accrual', 'update', { accrualStatus: state }) === undefined, (ACCRUAL_LIFECYCLE.editableIn as readonly string[]).includes(state), state);
    t.is(lockOf('accrual', 'delete', { accrualStatus: state }) === undefined, (ACCRUAL_LIFECYCLE.deletableIn as readonly string[]).includes(state), state);
  }
  t.deepEqual(lockOf('dms-file', 'delete', { legalHold: true }), { field: 'legalHold', value: true });
  t.is(lockOf('dms-file', 'delete', { legalHold: false }), undefined);
  t.is(lockOf('dms-file', 'update', { legalHold: true }), undefined, 'a held file is still updated: that is how the hold is lifted');
  t.is(lockOf('business-partner', 'delete', {}), undefined, 'a resource without locks');
});

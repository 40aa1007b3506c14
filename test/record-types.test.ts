/**
 * Hooks and operations see typed rows (RowOf) derived from the declarations: each column with the
 * type its kind holds and null where it may be empty. These are compile-time checks (the suite
 * runs `tsc`); the test below only makes them part of the run.
 */
import test from 'ava';
import type { RowOf, MessageOf } from '@platform/service-kit/crud/records.ts';
import type { UserProcess } from '@platform/kit/gen/platform/core/v1/user_process.ts';
import type { branch } from '@platform/contracts/bpm/branch.ts';
import type { userInfo } from '@platform/contracts/core/user-info.ts';
import type { userProcess } from '@platform/contracts/core/user-process.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const checks: readonly true[] = [
  true satisfies Equal<RowOf<typeof userInfo>['userCode'], string>,
  true satisfies Equal<RowOf<typeof userInfo>['email'], string | null>,
  true satisfies Equal<RowOf<typeof userInfo>['superUser'], boolean>,
  true satisfies Equal<RowOf<typeof userInfo>['tokenVersion'], number>,
  true satisfies Equal<RowOf<typeof userInfo>['createdAt'], Date>,
  true satisfies Equal<RowOf<typeof branch>['businessPartnerId'], number>,
  true satisfies Equal<RowOf<typeof branch>['address'], string | null>,
  // an object list is not a column
  true satisfies Equal<'userProcessSelects' extends keyof RowOf<typeof userProcess> ? true : false, false>,
  true satisfies Equal<MessageOf<typeof userProcess>, UserProcess>,
];

test('rows of hooks are typed by their declarations (checked by the compiler)', (t) => {
  t.is(checks.length, 9);
});

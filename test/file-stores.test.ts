/**
 * The file tests on both stores (test/helpers/file-stores.ts, test/run.ts): every test/dms-*.test.ts
 * is named once, as a test of both stores or of one with its reason, and a run's selection picks the
 * pass on the bucket as test/run.ts uses it.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';
import { bucketPassArgs, ON_BOTH_STORES, ON_ONE_STORE } from './helpers/file-stores.ts';

test('every test/dms-*.test.ts runs on both stores or says why it runs on one; each is named once and exists', async (t) => {
  const files = (await readdir(join(ROOT_DIR, 'test')))
    .filter((name) => /^dms-.*\.test\.ts$/.test(name))
    .map((name) => `test/${name}`)
    .sort();
  const named = [...ON_BOTH_STORES, ...Object.keys(ON_ONE_STORE)].sort();
  t.deepEqual(named, files);
  t.is(new Set(named).size, named.length, 'no file in both lists');
  for (const [file, reason] of Object.entries(ON_ONE_STORE)) t.regex(reason, /\w{3,}/, file);
});

test("a run's pass on the bucket: all of ON_BOTH_STORES for the whole suite, the selected ones of a selection, nothing for a selection without one; flags kept", (t) => {
  t.deepEqual(bucketPassArgs([], ROOT_DIR), [...ON_BOTH_STORES]);
  t.deepEqual(bucketPassArgs(['--fail-fast'], ROOT_DIR), ['--fail-fast', ...ON_BOTH_STORES]);
  t.deepEqual(bucketPassArgs(['test/dms-files.test.ts', 'test/dms-file-modes.test.ts', 'test/auth.test.ts'], ROOT_DIR), ['test/dms-files.test.ts']);
  t.deepEqual(bucketPassArgs(['./test/dms-tus.test.ts', join(ROOT_DIR, 'test/dms-retention.test.ts')], ROOT_DIR), [
    'test/dms-retention.test.ts',
    'test/dms-tus.test.ts',
  ]);
  t.deepEqual(
    bucketPassArgs(['test/dms-tus*.test.ts'], ROOT_DIR),
    ON_BOTH_STORES.filter((file) => file.startsWith('test/dms-tus')),
  );
  t.true(bucketPassArgs(['test/dms-tus*.test.ts'], ROOT_DIR).length >= 4);
  t.deepEqual(bucketPassArgs(['test/auth.test.ts', 'test/dms-file-modes.test.ts'], ROOT_DIR), []);
});

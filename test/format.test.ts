/**
 * The tree is formatted as Prettier writes it (.prettierrc.json; generated files are in
 * .prettierignore): `npm run format` writes it, and this test fails on any file it would change.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';

test('prettier finds every file formatted', async (t) => {
  t.timeout(120_000);
  const prettier = join(ROOT_DIR, 'node_modules/prettier/bin/prettier.cjs');
  const result = await promisify(execFile)(process.execPath, [prettier, '--check', '**/*.{ts,tsx,js}'], { cwd: ROOT_DIR, maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: { stdout?: string; stderr?: string }) => ({
      stdout: `${error.stdout ?? ''}${error.stderr ?? String(error)}\nrun \`npm run format\``,
      failed: true,
    }),
  );
  t.false('failed' in result, result.stdout);
});

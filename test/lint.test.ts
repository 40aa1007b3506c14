/** The whole tree passes ESLint (eslint.config.js: the recommended sets, floating promises, `import type`). */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';

test('eslint passes', async (t) => {
  // typed linting (floating promises) spends about 90 s of CPU on the whole tree; beside the
  // suite's other files on two cores that took more than 120 s of wall time
  t.timeout(360_000);
  const eslint = join(ROOT_DIR, 'node_modules/eslint/bin/eslint.js');
  const result = await promisify(execFile)(process.execPath, [eslint, '--max-warnings', '0', '.'], { cwd: ROOT_DIR, maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ''}${error.stderr ?? String(error)}`, failed: true }),
  );
  t.false('failed' in result, result.stdout);
});

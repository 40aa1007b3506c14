/** The whole tree type-checks under the strict tsconfig that agrees with Node's type stripping. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';

// the services' and tools' project, and the console's (browser, JSX: gateway/console/tsconfig.json)
for (const project of ['.', 'gateway/console']) {
  test(`tsc --noEmit -p ${project} passes`, async (t) => {
    const tsc = join(ROOT_DIR, 'node_modules/typescript/bin/tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', join(ROOT_DIR, project)], { cwd: ROOT_DIR }).catch(
      (error: { stdout?: string }) => ({
        stdout: error.stdout ?? String(error),
        failed: true,
      }),
    );
    t.false('failed' in result, result.stdout);
  });
}

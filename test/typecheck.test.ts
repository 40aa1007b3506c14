/**
 * The whole tree type-checks under the strict tsconfig that agrees with Node's type stripping. The
 * check is TypeScript 7's native compiler (the `typescript-native` alias of typescript 7.0.2): the
 * same verdict as 6.0.3 on this tree at about a third of its CPU (8 s against 25 s for the root
 * project, 4 s against 12 s for the console's). typescript 6.0.3 stays for ESLint, whose
 * typescript-eslint needs the JavaScript compiler API that 7 does not have.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';

// the services' and tools' project, and the console's (browser, JSX: gateway/console/tsconfig.json)
for (const project of ['.', 'gateway/console']) {
  test(`tsc --noEmit -p ${project} passes`, async (t) => {
    const tsc = join(ROOT_DIR, 'node_modules/typescript-native/bin/tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', join(ROOT_DIR, project)], { cwd: ROOT_DIR }).catch(
      (error: { stdout?: string }) => ({
        stdout: error.stdout ?? String(error),
        failed: true,
      }),
    );
    t.false('failed' in result, result.stdout);
  });
}

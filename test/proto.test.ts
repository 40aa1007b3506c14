/** The contracts: protos lint clean, and the generated code is what the protos generate. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';
import { staleFiles } from '../scripts/proto-gen.ts';

test('protos pass buf lint (STANDARD and COMMENTS)', (t) => {
  t.notThrows(() => execFileSync(join(ROOT_DIR, 'node_modules/.bin/buf'), ['lint', 'proto'], { cwd: ROOT_DIR, stdio: 'pipe' }));
});

test('libs/kit/src/gen is in step with proto/ (npm run proto:gen regenerates it)', (t) => {
  t.deepEqual(staleFiles(), []);
});

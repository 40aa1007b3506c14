/**
 * The order startPlatform starts the processes in (scripts/lib/processes.ts): all at once, since
 * none needs another up to start, but bpm-svc's migrations only once core-svc's are applied (bpm's
 * keys name core's tables); the platform is ready when every process is. Stand-ins
 * (helpers/migrating-stub.ts) take the services' places and "migrate" until the test lets them.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import { ROOT_DIR, type ServiceName } from '../scripts/lib/platform-layout.ts';
import { startPlatform } from '../scripts/lib/processes.ts';
import { platform } from './helpers/platform.ts';

const STUB = new URL('./helpers/migrating-stub.ts', import.meta.url).pathname;
const NAMES: ServiceName[] = ['core-svc', 'bpm-svc', 'dms-svc', 'gateway'];
const UNGATED: ServiceName[] = ['core-svc', 'dms-svc', 'gateway'];

test('every process starts at once; bpm-svc migrates after core-svc has, dms-svc does not wait', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'start-order-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const hold = join(dir, 'go');
  const lines: string[] = [];
  const started = await startPlatform({
    // as npm start launches them: the test run's own NODE_DISABLE_COMPILE_CACHE (test/run.ts) set aside
    env: { ...platform.env, GATEWAY_PORT: '0', STUB_HOLD_FILE: hold, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: '' },
    entries: Object.fromEntries(NAMES.map((name) => [name, STUB])),
    log: (name, line) => {
      lines.push(`${name} ${line}`);
      // the migrations are held until every process has started and every one but bpm-svc is
      // migrating: a launcher that waited for one process before starting the next, or held dms-svc
      // back until core-svc had migrated, would never get here (the lines of different children
      // arrive in any order, so "started" alone does not mean the next line is on its way)
      const going = NAMES.every((each) => lines.includes(`${each} started`)) && UNGATED.every((each) => lines.includes(`${each} migrating`));
      if (going && !existsSync(hold)) writeFileSync(hold, '');
    },
  });
  t.teardown(() => started.stop());
  // the lines come over the children's stdout, the ready messages over IPC: the last may come first
  for (const deadline = Date.now() + 10_000; !NAMES.every((name) => lines.includes(`${name} migrated`)) && Date.now() < deadline;) await delay(20);
  const at = (line: string): number => lines.indexOf(line);
  for (const name of NAMES) t.true(at(`${name} started`) >= 0 && at(`${name} migrated`) >= 0, `${name}: ${lines.join(' | ')}`);
  t.true(at('bpm-svc started') < at('core-svc migrated'), 'bpm-svc started while core-svc migrated');
  t.true(at('bpm-svc migrating') > at('core-svc migrated'), `bpm-svc migrated only after core-svc: ${lines.join(' | ')}`);
  t.true(at('dms-svc migrating') < at('core-svc migrated'), `dms-svc did not wait for core-svc: ${lines.join(' | ')}`);
  t.is(started.env.NODE_COMPILE_CACHE, join(ROOT_DIR, 'node_modules/.cache/node-compile-cache'), "the children keep Node's compile cache");
  t.false('NODE_DISABLE_COMPILE_CACHE' in started.env);
});

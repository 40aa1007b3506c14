/**
 * `npm start` as a supervisor (scripts/lib/processes.ts `supervise`): a child that dies is started
 * again with exponential backoff while the others keep running, and stop() still ends everything.
 * Stand-ins (helpers/ready-stub.ts) take the services' places: the restart logic is the launcher's.
 */
import test from 'ava';
import type { ServiceName } from '../scripts/lib/platform-layout.ts';
import { startPlatform } from '../scripts/lib/processes.ts';
import { isAlive as alive } from '../scripts/lib/os-probes.ts';
import { platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

test('a killed child is restarted after a backoff that doubles, the others keep running, stop() ends all', async (t) => {
  const delays: number[] = [];
  let restarted: (pid: number) => void = () => undefined;
  const platformUnder = await startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0' },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB, gateway: READY_STUB },
    log: suiteLog(),
    supervise: {
      initialBackoffMs: 100,
      maxBackoffMs: 1_000,
      onRestart: (name, delayMs) => {
        if (name === 'bpm-svc') delays.push(delayMs);
      },
      onRestarted: (name, pid) => {
        if (name === 'bpm-svc') restarted(pid);
      },
    },
  });
  try {
    const others: ServiceName[] = ['core-svc', 'dms-svc', 'gateway'];
    const before = { ...platformUnder.pids };
    const killAndAwait = async (pid: number): Promise<number> => {
      const back = new Promise<number>((r) => (restarted = r));
      process.kill(pid, 'SIGKILL');
      return Promise.race([back, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('not restarted within 10 s')), 10_000))]);
    };
    const first = await killAndAwait(before['bpm-svc']);
    t.not(first, before['bpm-svc']);
    t.true(alive(first));
    t.is(platformUnder.pids['bpm-svc'], first);
    const second = await killAndAwait(first);
    t.true(alive(second));
    t.deepEqual(delays, [100, 200], 'the second restart in a row waits twice as long');
    for (const name of others) {
      t.is(platformUnder.pids[name], before[name], `${name} was not restarted`);
      t.true(alive(before[name]), `${name} kept running`);
    }
    await platformUnder.stop();
    for (const pid of [second, ...others.map((name) => before[name])]) t.false(alive(pid));
  } finally {
    await platformUnder.stop();
  }
});

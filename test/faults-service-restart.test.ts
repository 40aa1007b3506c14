/**
 * A service killed under a steady load through the gateway (docs/decisions.md "Faults"): while it is
 * down the gateway answers 503 SVC-SYS-5002 within its deadline, never anything else and never a
 * hang; the supervisor (scripts/lib/processes.ts `supervise`) starts it again, and the same gateway,
 * never restarted, answers 200 again by itself. The bpm-svc and gateway are the test's own; core and
 * dms are the suite's.
 */
import test from 'ava';
import { startPlatform } from '../scripts/lib/processes.ts';
import { without } from './helpers/env-without.ts';
import { adminSession, createPartner, freshTenant } from './helpers/factories.ts';
import { platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

const DEADLINE_MS = 2_000;
const RATE = 200; // requests per second
// the answer's own bound: the deadline, with room for the queueing of a 2-core machine running the suite
const ANSWER_BOUND_MS = DEADLINE_MS + 4_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Outcome {
  startedAt: number;
  ms: number;
  status: number;
  code?: string;
  error?: string;
}

test('bpm-svc killed under load: only 200 and 503 SVC-SYS-5002 within the deadline, then 200 again from the same gateway', async (t) => {
  let restartedAt = 0;
  const own = await startPlatform({
    env: { ...without(platform.env, 'BPM_GRPC_ADDR'), GATEWAY_PORT: '0', GRPC_DEADLINE_MS: String(DEADLINE_MS) },
    ports: 'free', // bpm-svc's port picked by the start, again if it is taken before bpm-svc binds it
    entries: { 'core-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
    supervise: { initialBackoffMs: 500, onRestarted: (name) => name === 'bpm-svc' && (restartedAt = Date.now()) },
  });
  try {
    const { token } = await adminSession();
    const partner = await createPartner(freshTenant());
    const gatewayPid = own.pids.gateway;
    const outcomes: Promise<Outcome>[] = [];
    const one = async (): Promise<Outcome> => {
      const startedAt = Date.now();
      try {
        const res = await fetch(`${own.url}/api/business-partner/${partner.id}`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(ANSWER_BOUND_MS + 4_000),
        });
        const body = (await res.json()) as { error_code?: string };
        return { startedAt, ms: Date.now() - startedAt, status: res.status, code: body.error_code };
      } catch (error) {
        return { startedAt, ms: Date.now() - startedAt, status: 0, error: String(error) };
      }
    };
    // open loop: RATE/100 requests every 10 ms, whatever the answers do
    const load = setInterval(() => {
      for (let i = 0; i < RATE / 100; i++) outcomes.push(one());
    }, 10);
    let killedAt = 0;
    try {
      await sleep(1_500);
      killedAt = Date.now();
      process.kill(own.pids['bpm-svc'], 'SIGKILL');
      for (let waited = 0; restartedAt === 0; waited += 100) {
        if (waited > 30_000) throw new Error('bpm-svc was not restarted within 30 s');
        await sleep(100);
      }
      await sleep(3_000);
    } finally {
      clearInterval(load);
    }
    const all = await Promise.all(outcomes);
    const odd = all.filter((o) => o.status !== 200 && !(o.status === 503 && o.code === 'SVC-SYS-5002'));
    t.deepEqual(odd.slice(0, 5), [], `${odd.length} answers neither 200 nor 503 SVC-SYS-5002`);
    t.true(all.every((o) => o.ms < ANSWER_BOUND_MS), `slowest: ${Math.max(...all.map((o) => o.ms))} ms`);
    t.true(all.filter((o) => o.startedAt + o.ms < killedAt).every((o) => o.status === 200), 'all 200 before the kill');
    t.true(all.some((o) => o.status === 503), 'the service was down for a while');
    // the channel reconnects within its backoff (at most 1 s): from 1.5 s after the restart on, all 200
    const after = all.filter((o) => o.startedAt > restartedAt + 1_500);
    t.true(after.length >= 50, `${after.length} requests after the recovery`);
    t.deepEqual(after.filter((o) => o.status !== 200).length, 0, 'all 200 once the service is back');
    t.is(own.pids.gateway, gatewayPid, 'the gateway was not restarted');
    t.log(`slowest ${Math.max(...all.map((o) => o.ms))} ms; ${all.length} requests, ${all.filter((o) => o.status === 503).length} answered 503 while bpm-svc was down ${restartedAt - killedAt} ms`);
  } finally {
    await own.stop();
  }
});

/**
 * A service killed under a steady load through the gateway (docs/adr/0047-a-service-down-is-503-at-once-reads.md): while it is
 * down the gateway answers 503 SVC-SYS-5002 within its deadline, never anything else and never a
 * hang; the supervisor (scripts/lib/processes.ts `supervise`) starts it again, and the same gateway,
 * never restarted, answers 200 again by itself. The bpm-svc and gateway are the test's own; core and
 * dms are the suite's.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { startPlatform } from '../scripts/lib/processes.ts';
import { without } from './helpers/env-without.ts';
import { adminSession, createPartner, freshTenant } from './helpers/factories.ts';
import { platform } from './helpers/platform.ts';
import { gatewayDurations } from './helpers/platform-log.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

const DEADLINE_MS = 2_000;
const RATE = 200; // requests per second
/**
 * What the gateway may spend on a request besides the call the deadline bounds: reading the session
 * in PostgreSQL before it, queueing behind the other requests, writing the answer after. Measured
 * under this test's load, with other suites running on the machine: at most 605 ms for the whole
 * request, call included (four runs).
 */
const AROUND_CALL_MS = 1_000;
/**
 * Timed at the gateway (its access line's durationMs). Timed here, an answer also carries this
 * process's own queueing: it sends 200 requests a second and reads every answer on the event loop
 * that times them, on a machine the rest of the suite shares — up to 800 ms over the gateway's time
 * in the same four runs (1,387 ms here against 587 at the gateway), more when the whole suite runs:
 * that is where an answer bound of deadline + 4 s timed here went. It is not the gateway's to answer
 * for; a request that gets no answer at all within HANG_MS here still fails the test.
 */
const ANSWER_BOUND_MS = DEADLINE_MS + AROUND_CALL_MS;
const HANG_MS = 4 * DEADLINE_MS;
/** From the restart to the gateway's first 200: the channel's reconnect backoff (at most 1.2 s) and its set-up under the suite's load. */
const RECOVERY_MS = 3_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Outcome {
  requestId: string;
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
      const requestId = randomUUID();
      try {
        const res = await fetch(`${own.url}/api/business-partner/${partner.id}`, {
          headers: { authorization: `Bearer ${token}`, 'x-request-id': requestId },
          signal: AbortSignal.timeout(HANG_MS),
        });
        const body = (await res.json()) as { error_code?: string };
        return { requestId, startedAt, ms: Date.now() - startedAt, status: res.status, code: body.error_code };
      } catch (error) {
        return { requestId, startedAt, ms: Date.now() - startedAt, status: 0, error: String(error) };
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
      await sleep(RECOVERY_MS + 1_500); // then at least 1.5 s of answers after a recovery at the bound
    } finally {
      clearInterval(load);
    }
    const all = await Promise.all(outcomes);
    const odd = all.filter((o) => o.status !== 200 && !(o.status === 503 && o.code === 'SVC-SYS-5002'));
    t.deepEqual(odd.slice(0, 5), [], `${odd.length} answers neither 200 nor 503 SVC-SYS-5002`);
    t.deepEqual(all.filter((o) => o.status === 0).slice(0, 5), [], `every request answered within ${HANG_MS} ms`);
    const durations = await gatewayDurations(all.map((o) => o.requestId));
    for (let waited = 0; durations.size < all.length && waited < 5_000; waited += 200) {
      await sleep(200); // the last access lines reach the log a moment after their answers
      for (const [id, ms] of await gatewayDurations(all.filter((o) => !durations.has(o.requestId)).map((o) => o.requestId))) durations.set(id, ms);
    }
    t.is(durations.size, all.length, 'an access line for every request');
    const gatewaySlowest = Math.max(...durations.values());
    t.true(gatewaySlowest < ANSWER_BOUND_MS, `every answer within the deadline and the gateway's own work: slowest ${gatewaySlowest} ms at the gateway`);
    t.true(
      all.filter((o) => o.startedAt + o.ms < killedAt).every((o) => o.status === 200),
      'all 200 before the kill',
    );
    t.true(
      all.some((o) => o.status === 503),
      'the service was down for a while',
    );
    // the channel reconnects by itself within its backoff (at most 1 s, which grpc-js jitters by up
    // to 20 %) and the connection's set-up, slower on a machine the rest of the suite loads: the
    // first 200 begins within RECOVERY_MS of the restart, and from it on every answer is 200
    const firstBack = Math.min(...all.filter((o) => o.startedAt > restartedAt && o.status === 200).map((o) => o.startedAt));
    t.true(firstBack - restartedAt <= RECOVERY_MS, `the first 200 began ${firstBack - restartedAt} ms after the restart`);
    const after = all.filter((o) => o.startedAt >= firstBack);
    t.true(after.length >= 50, `${after.length} requests after the recovery`);
    t.deepEqual(after.filter((o) => o.status !== 200).length, 0, 'all 200 once the service is back');
    t.is(own.pids.gateway, gatewayPid, 'the gateway was not restarted');
    t.log(
      `slowest ${gatewaySlowest} ms at the gateway, ${Math.max(...all.map((o) => o.ms))} ms here; ${all.length} requests, ${all.filter((o) => o.status === 503).length} answered 503 while bpm-svc was down ${restartedAt - killedAt} ms`,
    );
  } finally {
    await own.stop();
  }
});

/**
 * SIGTERM drains (docs/adr/0046-sigterm-drains-within-20.md): a process stops accepting, answers every request it
 * already holds, then exits 0 within the bound (DRAIN_BOUND_MS, 20 s). The requests are held in
 * flight by row locks the test takes in PostgreSQL, so each is provably inside the process when the
 * signal arrives. Each test runs a bpm-svc and a gateway of its own (core and dms are the suite's).
 */
import test from 'ava';
import { type Platform, startPlatform } from '../scripts/lib/processes.ts';
import type { ServiceName } from '../scripts/lib/platform-layout.ts';
import { without } from './helpers/env-without.ts';
import { withDb } from './helpers/db.ts';
import { adminSession, createPartner, freshTenant } from './helpers/factories.ts';
import { api, type ApiResponse, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

interface Exit {
  code: number | null;
  at: number;
}

/** A bpm-svc and a gateway of the test's own; `exits` resolves per child when it exits on its own. */
async function ownBpmAndGateway(): Promise<{ own: Platform; exitOf(name: ServiceName): Promise<Exit> }> {
  const waiters = new Map<ServiceName, (exit: Exit) => void>();
  const exits = new Map<ServiceName, Promise<Exit>>();
  for (const name of ['bpm-svc', 'gateway'] as const) exits.set(name, new Promise((r) => waiters.set(name, r)));
  const own = await startPlatform({
    // a deadline past the 9 s a call is held below
    env: { ...without(platform.env, 'BPM_GRPC_ADDR'), GATEWAY_PORT: '0', GRPC_DEADLINE_MS: '30000' },
    ports: 'free', // bpm-svc's port picked by the start, again if it is taken before bpm-svc binds it
    entries: { 'core-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
    onExit: (name, code) => waiters.get(name)?.({ code, at: Date.now() }),
  });
  return { own, exitOf: (name) => exits.get(name) ?? Promise.reject(new Error(name)) };
}

/**
 * Three updates through `gateway`, each waiting on a row lock held by the test; `during` runs once
 * they are all in flight, then the locks go after `holdMs`. The answers and when the last came.
 */
async function updatesHeldInFlight(gateway: string, holdMs: number, during: () => void): Promise<{ answers: ApiResponse[]; lastAt: number }> {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partners = await Promise.all([1, 2, 3].map(() => createPartner(tenant)));
  return withDb(async (db) => {
    await db.query('begin');
    await db.query('select id from bpm.business_partner where id = any($1::bigint[]) for update', [partners.map((p) => p.id)]);
    let lastAt = 0;
    const pending = partners.map((partner, i) =>
      api('PUT', `/api/business-partner/${partner.id}`, { token, baseUrl: gateway, body: { version: partner.version, phone: `+90 555 000 00 0${i}` } }).then(
        (res) => {
          lastAt = Date.now();
          return res;
        },
      ),
    );
    // until all three wait on the locks in PostgreSQL (the statistics snapshot, kept for the
    // transaction, cleared before each look)
    for (let waited = 0; ; waited += 50) {
      await db.query('select pg_stat_clear_snapshot()');
      // only the sessions waiting on this one's locks: other tests' writes wait on locks of their own
      const { rows } = await db.query('select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))');
      if (rows[0].n >= 3) break;
      if (waited > 10_000) throw new Error('the updates never reached the database');
      await new Promise((r) => setTimeout(r, 50));
    }
    during();
    await new Promise((r) => setTimeout(r, holdMs));
    await db.query('commit');
    return { answers: await Promise.all(pending), lastAt };
  });
}

test('SIGTERM to the gateway: the requests in flight get their answers, then it exits 0 at once (keep-alive connections closed)', async (t) => {
  const { own, exitOf } = await ownBpmAndGateway();
  try {
    let signalledAt = 0;
    const { answers, lastAt } = await updatesHeldInFlight(own.url, 1_000, () => {
      signalledAt = Date.now();
      process.kill(own.pids.gateway, 'SIGTERM');
    });
    for (const res of answers) t.is(res.status, 200, res.text);
    t.deepEqual(
      answers.map((res) => res.body.version),
      [1, 1, 1],
    );
    const exit = await exitOf('gateway');
    t.is(exit.code, 0);
    t.true(exit.at - lastAt < 2_000, `exited ${exit.at - lastAt} ms after the last answer`);
    t.true(exit.at - signalledAt < 20_000);
    // and it accepts nothing more
    await t.throwsAsync(fetch(`${own.url}/api/health`));
  } finally {
    await own.stop();
  }
});

test('SIGTERM to a service: the calls in flight complete, even past 8 s, then it exits 0 within the bound', async (t) => {
  const { own, exitOf } = await ownBpmAndGateway();
  try {
    let signalledAt = 0;
    let healthMidDrain: Promise<Response> | undefined;
    const { answers, lastAt } = await updatesHeldInFlight(own.url, 9_000, () => {
      signalledAt = Date.now();
      process.kill(own.pids['bpm-svc'], 'SIGTERM');
      // docs/adr/0046-sigterm-drains-within-20.md: the metrics port's /health answers "503 once it stops", while it drains
      healthMidDrain = new Promise((resolve) => setTimeout(resolve, 1_000)).then(() => fetch(`http://${own.metrics['bpm-svc']}/health`));
    });
    for (const res of answers) t.is(res.status, 200, res.text);
    const health = await healthMidDrain;
    t.is(health?.status, 503);
    t.deepEqual(await health?.json(), { status: 'NOT_SERVING' });
    const exit = await exitOf('bpm-svc');
    t.is(exit.code, 0);
    t.true(exit.at - lastAt < 2_000, `exited ${exit.at - lastAt} ms after the last answer`);
    t.true(exit.at - signalledAt < 20_000);
    // the gateway stays up and says the service is gone
    const after = await api('GET', `/api/business-partner/1`, { token: (await adminSession()).token, baseUrl: own.url });
    t.is(after.status, 503);
    t.is(after.body.error_code, 'SVC-SYS-5002');
  } finally {
    await own.stop();
  }
});

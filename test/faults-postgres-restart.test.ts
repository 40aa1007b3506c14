/**
 * PostgreSQL restarted under a running platform (docs/decisions.md "Faults"): while it is down every
 * request gets an error body at once (503 SVC-SYS-5002), never a hang or a crash; within 10 s of it
 * answering again, requests succeed again, with no process restarted. The PostgreSQL is an embedded
 * one this test starts on a free port in a folder of its own (never the machine's), and the platform
 * a whole one of its own against it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from '../scripts/lib/embedded-postgres.ts';
import { type Platform, startPlatform } from '../scripts/lib/processes.ts';
import { freePort, isAlive as alive } from '../scripts/lib/os-probes.ts';
import { throwawayEnv } from '../scripts/lib/throwaway-env.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { sessionOf } from './helpers/factories.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('PostgreSQL stopped: 503 SVC-SYS-5002 at once, no process dies; restarted: requests succeed again within 10 s', async (t) => {
  const workDir = await mkdtemp(join(tmpdir(), 'faults-pg-'));
  const port = await freePort();
  const pgOptions = { dataDir: join(workDir, 'pg'), port, fast: true };
  let pg: EmbeddedPostgresServer | undefined = await startEmbeddedPostgres(pgOptions);
  let own: Platform | undefined;
  try {
    const { env, secrets } = throwawayEnv(pg.url, workDir, { BCRYPT_ROUNDS: '4', GRPC_DEADLINE_MS: '5000' });
    own = await startPlatform({ env, ports: 'free', log: suiteLog() });
    const url = own.url;
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': secrets.CORE_API_KEY },
      body: JSON.stringify({ userCode: 'admin', password: secrets.ADMIN_PASSWORD, languageCode: 'en' }),
    });
    t.is(login.status, 200, await login.clone().text());
    const token = sessionOf(login).token;
    const jwt = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/api/business-partner`, {
      method: 'POST',
      headers: jwt,
      body: JSON.stringify({ crProcessId: 1, partnerCode: 'PG-RESTART', partnerName: 'Restart test', partnerType: 'CUSTOMER' }),
    });
    const partner = (await created.json()) as { id: number };
    t.is(created.status, 200, JSON.stringify(partner));
    // a JWT path (bpm-svc, which reads the session itself) and an API-key path (core-svc alone)
    const probes = async (): Promise<{ status: number; code?: string; ms: number }[]> =>
      Promise.all(
        [
          fetch(`${url}/api/business-partner/${partner.id}`, { headers: jwt, signal: AbortSignal.timeout(15_000) }),
          fetch(`${url}/api/session/stats`, { headers: { 'x-api-key': secrets.CORE_API_KEY }, signal: AbortSignal.timeout(15_000) }),
        ].map(async (pending) => {
          const started = Date.now();
          const res = await pending;
          const body = (await res.json()) as { error_code?: string };
          return { status: res.status, code: body.error_code, ms: Date.now() - started };
        }),
      );
    t.deepEqual((await probes()).map((p) => p.status), [200, 200]);
    const pids = Object.values(own.pids);

    await pg.stop();
    pg = undefined;
    for (let i = 0; i < 3; i++) {
      const down = await probes();
      for (const probe of down) {
        t.is(probe.status, 503, JSON.stringify(probe));
        t.is(probe.code, 'SVC-SYS-5002');
      }
      await sleep(300);
    }
    pg = await startEmbeddedPostgres(pgOptions);
    const backAt = Date.now();
    let recovered = false;
    while (Date.now() - backAt < 10_000) {
      if ((await probes()).every((p) => p.status === 200)) {
        recovered = true;
        break;
      }
      await sleep(200);
    }
    t.true(recovered, 'requests succeed again within 10 s of PostgreSQL answering');
    t.log(`recovered ${Date.now() - backAt} ms after PostgreSQL was back`);
    t.true(pids.every(alive), 'no process died');
    t.deepEqual(Object.values(own.pids), pids, 'none was restarted');
  } finally {
    await own?.stop();
    await pg?.stop();
    await rm(workDir, { recursive: true, force: true });
  }
});

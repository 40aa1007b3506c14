/**
 * PostgreSQL restarted under a running platform (docs/adr/0048-an-unreachable-database-is-503.md): while it is down every
 * request gets an error body at once (503 SVC-SYS-5002), never a hang or a crash; within 10 s of it
 * answering again, requests succeed again, with no process restarted. The PostgreSQL is an embedded
 * one this test starts on a free port in a folder of its own (never the machine's), and the platform
 * a whole one of its own against it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { type EmbeddedPostgresServer, startEmbeddedPostgres, startEmbeddedPostgresOnFreePort } from '../scripts/lib/embedded-postgres.ts';
import { type Platform, startPlatform } from '../scripts/lib/processes.ts';
import { isAlive as alive } from '../scripts/lib/os-probes.ts';
import { throwawayEnv } from '../scripts/lib/throwaway-env.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { sessionOf } from './helpers/factories.ts';
import { logLine } from './helpers/platform-log.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const GRPC_DEADLINE_MS = 5_000;
/**
 * "At once": without waiting for any timeout. Every timeout on the way — the gRPC deadline, the
 * connect timeout of the services' pools (libs/service-kit/src/db/orm.ts) — is 5 s; a refused connection fails in milliseconds, and the
 * gateway sends a read that came back UNAVAILABLE twice more, 100 and 200 ms apart (jittered,
 * gateway/src/retry-policy.ts): measured 89-371 ms in all. A fifth of the 5 s separates the two.
 */
const AT_ONCE_MS = GRPC_DEADLINE_MS / 5;

test('PostgreSQL stopped: 503 SVC-SYS-5002 at once, no process dies; restarted: requests succeed again within 10 s', async (t) => {
  const workDir = await mkdtemp(join(tmpdir(), 'faults-pg-'));
  const first = await startEmbeddedPostgresOnFreePort({ dataDir: join(workDir, 'pg'), fast: true });
  // restarted below on the same port: the platform's DATABASE_URL names it
  const pgOptions = { dataDir: join(workDir, 'pg'), port: first.port, fast: true };
  let pg: EmbeddedPostgresServer | undefined = first;
  let own: Platform | undefined;
  try {
    const { env, secrets } = throwawayEnv(pg.url, workDir, { BCRYPT_ROUNDS: '4', GRPC_DEADLINE_MS: String(GRPC_DEADLINE_MS), LOG_LEVEL: 'info' });
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
    const probes = async (): Promise<{ status: number; code?: string; requestId: string }[]> =>
      Promise.all(
        [
          [`${url}/api/business-partner/${partner.id}`, jwt],
          [`${url}/api/session/stats`, { 'x-api-key': secrets.CORE_API_KEY }],
        ].map(async ([target, headers]) => {
          const requestId = randomUUID();
          const res = await fetch(target as string, {
            headers: { ...(headers as Record<string, string>), 'x-request-id': requestId },
            signal: AbortSignal.timeout(15_000),
          });
          const body = (await res.json()) as { error_code?: string };
          return { status: res.status, code: body.error_code, requestId };
        }),
      );
    /** The gateway's own time on a request (its access line's durationMs, at LOG_LEVEL info), without this process's queueing. */
    const gatewayMs = async (requestId: string): Promise<number> => {
      const line = await logLine(requestId, (entry) => entry.source === 'gateway' && entry.entry.msg === 'request completed');
      return Number(line?.entry.durationMs ?? Number.NaN);
    };
    t.deepEqual(
      (await probes()).map((p) => p.status),
      [200, 200],
    );
    const pids = Object.values(own.pids);

    await pg.stop();
    pg = undefined;
    const downMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const down = await probes();
      for (const probe of down) {
        t.is(probe.status, 503, JSON.stringify(probe));
        t.is(probe.code, 'SVC-SYS-5002');
        const ms = await gatewayMs(probe.requestId);
        t.true(ms < AT_ONCE_MS, `answered at once, not after a timeout: ${ms} ms`);
        downMs.push(ms);
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
    t.log(`503 after ${downMs.join(', ')} ms at the gateway; recovered ${Date.now() - backAt} ms after PostgreSQL was back`);
    t.true(pids.every(alive), 'no process died');
    t.deepEqual(Object.values(own.pids), pids, 'none was restarted');
  } finally {
    await own?.stop();
    await pg?.stop();
    await rm(workDir, { recursive: true, force: true });
  }
});

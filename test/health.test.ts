/** Health (docs/interface.md#health): the gateway's view of every part, and its own liveness. */
import test from 'ava';
import { startPlatform } from '../scripts/lib/processes.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import { adminSession, createPartner, freshTenant } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';
import { claimsOf } from './helpers/tokens.ts';

test('GET /actuator/health is UP with core, bpm, dms, db, redis (when configured) and diskSpace', async (t) => {
  const res = await api('GET', '/actuator/health');
  t.is(res.status, 200);
  t.is(res.body.status, 'UP');
  t.deepEqual(Object.keys(res.body.components).sort(), ['bpm', 'core', 'db', 'diskSpace', 'dms', 'redis']);
  for (const component of Object.values(res.body.components) as { status: string }[]) t.is(component.status, 'UP');
  t.true(res.body.components.diskSpace.details.free > 0);
});

test('GET /api/health is the gateway liveness, public', async (t) => {
  const res = await api('GET', '/api/health');
  t.is(res.status, 200);
  t.deepEqual(res.body, { status: 'UP' });
});

test('a gateway whose dms service is unreachable answers 503 DOWN naming dms, and keeps serving the rest', async (t) => {
  const deadPort = await freePort();
  const gateway = await startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0', DMS_GRPC_ADDR: `127.0.0.1:${deadPort}` },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
  });
  try {
    const res = await api('GET', '/actuator/health', { baseUrl: gateway.url });
    t.is(res.status, 503);
    t.is(res.body.status, 'DOWN');
    t.is(res.body.components.dms.status, 'DOWN');
    t.is(res.body.components.core.status, 'UP');
    t.is((await api('GET', '/api/health', { baseUrl: gateway.url })).status, 200);

    // The rest: JWT-path routes to bpm and core, and API-key-path routes, all through this gateway.
    const session = await adminSession();
    const sid = String(claimsOf(session.token).sid);
    const partner = await createPartner(freshTenant());
    const record = await api('GET', `/api/business-partner/${partner.id}`, { token: session.token, baseUrl: gateway.url });
    t.is(record.status, 200, `a record get (JWT, bpm): ${record.text}`);
    t.deepEqual(record.body, partner);
    const me = await api('GET', '/api/auth/me', { token: session.token, baseUrl: gateway.url });
    t.is(me.status, 200, `auth/me (JWT, core): ${me.text}`);
    t.is(me.body.userCode, platform.adminUser);
    const one = await api('GET', `/api/session/${sid}`, { apiKey: true, baseUrl: gateway.url });
    t.is(one.status, 200, `a session get (API key): ${one.text}`);
    t.is(one.body.sessionId, sid);
    const listed = await api('POST', '/api/session/active/list', { apiKey: true, baseUrl: gateway.url, body: { page: 0, size: 1, filter: {} } });
    t.is(listed.status, 200, `the active session list (API key): ${listed.text}`);
    t.true(listed.body.totalElements >= 1);

    // and dms was down all along
    const after = await api('GET', '/actuator/health', { baseUrl: gateway.url });
    t.is(after.status, 503);
    t.is(after.body.components.dms.status, 'DOWN');
  } finally {
    await gateway.stop();
  }
});

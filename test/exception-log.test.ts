/**
 * The exception log (docs/interface.md#sessions-and-logs): every 5xx body's refId names an entry, whether a service or
 * the gateway failed, and the list's filters ("`POST /api/logs/exceptions/list`: a PageRequest whose
 * `filter` may hold `service`, `errorCode`, `userCode`, `crProcessId`, `createdAtFrom`,
 * `createdAtTo`, newest first by default").
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import pg from 'pg';
import { startPlatform } from '../scripts/lib/processes.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import { sql } from './helpers/db.ts';
import { adminSession, createAccount, createUser, freshTenant, login, unique } from './helpers/factories.ts';
import { exceptionEntry } from './helpers/exception-entry.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

const at = (second: number): string => new Date(Date.UTC(2001, 0, 1, 0, 0, second)).toISOString();

test('a 5xx in a service writes an exception entry under the refId its error body carries', async (t) => {
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  const marker = `boom-${Date.now()}`;
  // a real database failure, scoped to one partner name so that no other test meets it
  await db.query(`create or replace function bpm.fail_${marker.replace('-', '_')}() returns trigger language plpgsql as $$
    begin if new.partner_name = '${marker}' then raise exception 'injected failure'; end if; return new; end $$`);
  await db.query(
    `create trigger fail_${marker.replace('-', '_')} before insert on bpm.business_partner for each row execute function bpm.fail_${marker.replace('-', '_')}()`,
  );
  try {
    const { token } = await adminSession();
    const res = await api('POST', '/api/business-partner', {
      token,
      headers: { 'x-project-code': 'PRJ-7' },
      body: { crProcessId: freshTenant(), partnerCode: marker, partnerName: marker, partnerType: 'CUSTOMER' },
    });
    t.is(res.status, 500);
    t.is(res.body.error_code, 'SVC-SYS-5001');
    t.regex(res.body.refId, /^[0-9a-f-]{36}$/);
    t.false(res.text.includes('injected failure'), 'the cause never reaches the client');
    const entry = await exceptionEntry(res.body.refId);
    t.is(entry.status, 200);
    t.like(entry.body, {
      refId: res.body.refId,
      service: 'bpm',
      errorCode: 'SVC-SYS-5001',
      path: '/api/business-partner',
      method: 'POST',
      userCode: 'admin',
      projectCode: 'PRJ-7',
    });
    t.regex(entry.body.message, /injected failure/);
    t.truthy(entry.body.stack);
    const listed = await api('POST', '/api/logs/exceptions/list', { apiKey: true, body: { filter: { service: 'bpm', errorCode: 'SVC-SYS-5001' } } });
    t.is(listed.status, 200);
    t.true(listed.body.content.some((e: { refId: string }) => e.refId === res.body.refId));
  } finally {
    await db.query(`drop trigger if exists fail_${marker.replace('-', '_')} on bpm.business_partner`);
    await db.query(`drop function if exists bpm.fail_${marker.replace('-', '_')}()`);
    await db.end();
  }
});

test('an unreachable service is 503 SVC-SYS-5002 with a refId that the gateway logged', async (t) => {
  const gateway = await startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0', BPM_GRPC_ADDR: `127.0.0.1:${await freePort()}`, GRPC_DEADLINE_MS: '2000' },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
  });
  try {
    const { token } = await adminSession();
    const res = await api('GET', '/api/branch/1', { token, baseUrl: gateway.url });
    t.is(res.status, 503);
    t.is(res.body.error_code, 'SVC-SYS-5002');
    t.regex(res.body.refId, /^[0-9a-f-]{36}$/);
    const entry = await exceptionEntry(res.body.refId);
    t.like(entry.body, { service: 'gateway', errorCode: 'SVC-SYS-5002', path: '/api/branch/1', method: 'GET', userCode: 'admin' });
    // the gateway's own 503 is given to a live session only: a logged-out token is 401 there too
    const account = await createAccount();
    const { user, password } = await createUser([account.accountNo]);
    const ended = await login(user.userCode, password);
    t.is((await api('POST', '/api/auth/logout', { token: ended.token })).status, 204);
    const refused = await api('GET', '/api/branch/1', { token: ended.token, baseUrl: gateway.url });
    t.is(refused.status, 401);
    t.is(refused.body.error_code, 'SVC-SYS-1001');
  } finally {
    await gateway.stop();
  }
  t.is((await api('GET', '/api/logs/exceptions/not-a-uuid', { apiKey: true })).status, 400);
  t.is((await api('GET', '/api/logs/exceptions/00000000-0000-4000-8000-000000000000', { apiKey: true })).status, 404);
});

test('the exception list filters by service, errorCode, userCode, crProcessId and createdAt From/To (both ends included), newest first', async (t) => {
  const user = unique('exc-user-');
  const other = unique('exc-other-');
  const [tenantA, tenantB] = [freshTenant(), freshTenant()];
  const entries = [
    { name: 'a', service: 'bpm', errorCode: 'SVC-SYS-5001', userCode: user, crProcessId: tenantA, createdAt: at(0) },
    { name: 'b', service: 'gateway', errorCode: 'SVC-SYS-5002', userCode: user, crProcessId: tenantB, createdAt: at(10) },
    { name: 'c', service: 'bpm', errorCode: 'SVC-SYS-5001', userCode: user, crProcessId: tenantA, createdAt: at(20) },
    { name: 'd', service: 'dms', errorCode: 'SVC-SYS-5001', userCode: other, crProcessId: tenantA, createdAt: at(15) },
  ].map((entry) => ({ ...entry, refId: randomUUID() }));
  for (const e of entries) {
    await sql(
      `insert into core.exception_log (ref_id, service, error_code, message, user_code, cr_process_id, created_at) values ($1, $2, $3, $4, $5, $6, $7)`,
      [e.refId, e.service, e.errorCode, `entry ${e.name}`, e.userCode, e.crProcessId, e.createdAt],
    );
  }
  const nameOf = new Map<string, string>(entries.map((e) => [e.refId, e.name]));
  const listed = async (filter: Record<string, unknown>): Promise<string[]> => {
    const res = await api('POST', '/api/logs/exceptions/list', { apiKey: true, body: { page: 0, size: 50, filter } });
    t.is(res.status, 200, res.text);
    return (res.body.content as { refId: string }[]).map((e) => nameOf.get(e.refId) ?? `other ${e.refId}`);
  };

  t.deepEqual(await listed({ userCode: user }), ['c', 'b', 'a'], 'newest first by default');
  t.deepEqual(await listed({ userCode: user, crProcessId: tenantA }), ['c', 'a']);
  t.deepEqual(await listed({ crProcessId: tenantA }), ['c', 'd', 'a']);
  t.deepEqual(await listed({ crProcessId: tenantA, service: 'bpm' }), ['c', 'a']);
  t.deepEqual(await listed({ userCode: user, errorCode: 'SVC-SYS-5002' }), ['b']);
  t.deepEqual(await listed({ userCode: user, createdAtTo: at(10) }), ['b', 'a']);
  t.deepEqual(await listed({ userCode: user, createdAtFrom: at(10) }), ['c', 'b']);
  t.deepEqual(await listed({ crProcessId: tenantA, createdAtFrom: at(1), createdAtTo: at(20) }), ['c', 'd']);
  const page = await api('POST', '/api/logs/exceptions/list', { apiKey: true, body: { page: 1, size: 2, filter: { userCode: user } } });
  t.like(page.body, { totalElements: 3, totalPages: 2, first: false, last: true });
  t.deepEqual(
    page.body.content.map((e: { refId: string }) => nameOf.get(e.refId)),
    ['a'],
  );
  const bad = await api('POST', '/api/logs/exceptions/list', { apiKey: true, body: { filter: { createdAtTo: 'never' } } });
  t.is(bad.status, 400);
  t.is(bad.body.error_code, 'SVC-SYS-2001');
});

/**
 * The exception list's filters and order (decisions.md §7: "`POST /api/logs/exceptions/list`: a
 * PageRequest whose `filter` may hold `service`, `errorCode`, `userCode`, `crProcessId`,
 * `createdAtFrom`, `createdAtTo`, newest first by default"). The entries are written straight into
 * core.exception_log at known instants, under a user code and tenants no other test uses.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { sql } from './helpers/db.ts';
import { freshTenant, unique } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

const at = (second: number): string => new Date(Date.UTC(2001, 0, 1, 0, 0, second)).toISOString();

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
  t.deepEqual(page.body.content.map((e: { refId: string }) => nameOf.get(e.refId)), ['a']);
  const bad = await api('POST', '/api/logs/exceptions/list', { apiKey: true, body: { filter: { createdAtTo: 'never' } } });
  t.is(bad.status, 400);
  t.is(bad.body.error_code, 'SVC-SYS-2001');
});

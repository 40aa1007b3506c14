/**
 * Licences and their history (docs/interface.md#records: "license-history | read-only: licenseId, action
 * (CREATE, UPDATE, DELETE), snapshot (the license as JSON), changedBy, changedAt; written by every
 * license change"; docs/interface.md#retention-and-audit: "Audit rows and license-history rows belong to their record's tenant").
 */
import test from 'ava';
import { adminSession, create, createAccount, freshTenant, unique } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;

function licenceBody(crProcessId: number, overrides: Record<string, unknown> = {}) {
  return { crProcessId, licenseKey: unique('LIC-'), licenseType: 'TRIAL', maxUsers: 5, validFrom: '2026-01-01', validUntil: '2026-06-30', ...overrides };
}

async function historyOf(crProcessId: number, licenseId: number): Promise<any[]> {
  const res = await api('POST', '/api/license-history/list', {
    token: await admin(),
    body: { filter: { crProcessId, licenseId }, sorts: [{ field: 'id', direction: 'ASC' }] },
  });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.body.content;
}

test('a licence create, update and delete each write one history row with the licence as JSON, by whom and when, in its tenant', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const created = await create('license', licenceBody(tenant));
  const updated = (await api('PUT', `/api/license/${created.id}`, { token, body: { version: 0, maxUsers: 50, licenseType: 'ENTERPRISE' } })).body;
  t.is((await api('DELETE', `/api/license/${created.id}`, { token })).status, 204);

  const rows = await historyOf(tenant, created.id);
  t.deepEqual(
    rows.map((row) => row.action),
    ['CREATE', 'UPDATE', 'DELETE'],
  );
  t.deepEqual(JSON.parse(rows[0].snapshot), stripNulls(created));
  t.deepEqual(JSON.parse(rows[1].snapshot), stripNulls(updated));
  t.deepEqual(JSON.parse(rows[2].snapshot), stripNulls(updated), 'the licence as it was when deleted');
  for (const row of rows) {
    t.like(row, { crProcessId: tenant, licenseId: created.id, changedBy: 'admin', createdBy: 'admin' });
    t.regex(row.changedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  }
  // the history outlives the licence, and is read-only
  t.is((await api('GET', `/api/license-history/${rows[0].id}`, { token })).status, 200);
  t.is((await api('DELETE', `/api/license-history/${rows[0].id}`, { token })).status, 404);
});

test('a licence write that fails leaves no history row: the row and its history are one transaction', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const licence = await create('license', licenceBody(tenant));
  const other = await create('license', licenceBody(tenant));
  // a duplicate key (409) and a stale version (409) are refused after the hooks have run
  const duplicate = await api('PUT', `/api/license/${other.id}`, { token, body: { version: 0, licenseKey: licence.licenseKey } });
  t.is(duplicate.status, 409, duplicate.text);
  t.is(duplicate.body.error_code, 'SVC-SYS-4005');
  const backwards = await api('PUT', `/api/license/${other.id}`, { token, body: { version: 0, validUntil: '2025-12-31' } });
  t.is(backwards.status, 400, backwards.text);
  t.deepEqual(
    (await historyOf(tenant, other.id)).map((row) => row.action),
    ['CREATE'],
  );
});

test('validUntil before validFrom is 400 SVC-SYS-2001 naming validUntil; an impossible date is 400; the same day is fine', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const before = await api('POST', '/api/license', { token, body: licenceBody(tenant, { validFrom: '2026-03-01', validUntil: '2026-02-28' }) });
  t.is(before.status, 400, before.text);
  t.is(before.body.error_code, 'SVC-SYS-2001');
  t.is(before.body.message, 'Field validUntil must not be before validFrom');
  for (const date of ['2026-02-30', '2026-13-01', '26-01-01', '2026-1-1']) {
    const res = await api('POST', '/api/license', { token, body: licenceBody(tenant, { validFrom: date }) });
    t.is(res.status, 400, `${date}: ${res.text}`);
    t.regex(res.body.message, /validFrom/);
  }
  t.is((await api('POST', '/api/license', { token, body: licenceBody(tenant, { validFrom: '2026-05-05', validUntil: '2026-05-05' }) })).status, 200);
  const list = await api('POST', '/api/license/list', { token, body: { filter: { crProcessId: tenant } } });
  t.is(list.body.totalElements, 1, 'nothing of the refused writes was kept');
});

test("a licence's accountNo names an account of its own tenant (400 otherwise), and that account cannot be deleted while named (409)", async (t) => {
  const token = await admin();
  const [own, other] = await Promise.all([createAccount(), createAccount()]);
  const foreign = await api('POST', '/api/license', { token, body: licenceBody(own.crProcessId, { accountNo: other.accountNo }) });
  t.is(foreign.status, 400, foreign.text);
  t.is(foreign.body.error_code, 'SVC-SYS-2001');
  t.regex(foreign.body.message, /accountNo/);
  const unknown = await api('POST', '/api/license', { token, body: licenceBody(own.crProcessId, { accountNo: unique('NOPE-') }) });
  t.is(unknown.status, 400, unknown.text);
  const held = await api('POST', '/api/license', { token, body: licenceBody(own.crProcessId, { accountNo: own.accountNo }) });
  t.is(held.status, 200, held.text);
  const removal = await api('DELETE', `/api/account/${own.accountNo}`, { token });
  t.is(removal.status, 409, removal.text);
  t.is(removal.body.error_code, 'SVC-SYS-4003');
});

test('licenseKey is unique across the platform: the same key in another tenant is 409 SVC-SYS-4005', async (t) => {
  const token = await admin();
  const first = await create('license', licenceBody(freshTenant()));
  const again = await api('POST', '/api/license', { token, body: licenceBody(freshTenant(), { licenseKey: first.licenseKey }) });
  t.is(again.status, 409, again.text);
  t.is(again.body.error_code, 'SVC-SYS-4005');
});

/** A record as its snapshot holds it: the proto message, whose unset fields are absent rather than null. */
function stripNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));
}

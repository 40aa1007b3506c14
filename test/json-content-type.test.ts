/**
 * A body the gateway reads is JSON (docs/adr/0061-what-a-request-body-may-be.md): a POST, PUT or PATCH
 * that carries a body of another type, or of none named, is 400 SVC-SYS-2001 naming Content-Type
 * ("body, parameter or field invalid", docs/interface.md#errors), on every route alike — the accrual's moves,
 * whose body is optional, included — and changes nothing. A move without a body, or with an empty
 * one, still works.
 */
import test from 'ava';
import { adminSession, createAccrual, createPartner, freshTenant } from './helpers/factories.ts';
import { assertInvalid } from './helpers/error-body.ts';
import { api, platform } from './helpers/platform.ts';

type Action = 'approve' | 'invoice' | 'cancel';

async function accrualIn(...path: Action[]): Promise<any> {
  const { token } = await adminSession();
  let record = await createAccrual(freshTenant());
  for (const action of path) {
    const res = await api('POST', `/api/accrual/${record.id}/${action}`, { token });
    if (res.status !== 200) throw new Error(`${action}: ${res.status} ${res.text}`);
    record = res.body;
  }
  return record;
}

async function get(path: string): Promise<any> {
  const res = await api('GET', path, { token: (await adminSession()).token });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** POST `body` as it is, with exactly the given headers (the api helper names JSON when none is given). */
async function post(
  path: string,
  token: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(`${platform.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers }, body });
  const text = await response.text();
  return { status: response.status, body: response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : undefined, text };
}

// a text/plain body (what a browser's fetch sends for a string), JSON-looking or not, another type,
// and a body sent without any Content-Type
const NOT_JSON: [string, string | Uint8Array, Record<string, string>][] = [
  ['text/plain', 'please', { 'content-type': 'text/plain' }],
  ['text/plain JSON', '{"reason":"looks like JSON"}', { 'content-type': 'text/plain;charset=UTF-8' }],
  ['a JSON suffix type', '{}', { 'content-type': 'application/merge-patch+json' }],
  ['no Content-Type', new TextEncoder().encode('{}'), {}],
];

for (const [action, from] of [
  ['approve', []],
  ['invoice', ['approve']],
  ['cancel', []],
  ['cancel', ['approve']],
] as [Action, Action[]][]) {
  test(`${action} of a${from.length ? 'n APPROVED' : ' PENDING'} accrual with a body that is not JSON is 400 SVC-SYS-2001 naming Content-Type, and the accrual does not move`, async (t) => {
    const { token } = await adminSession();
    const accrual = await accrualIn(...from);
    for (const [name, body, headers] of NOT_JSON) {
      const res = await post(`/api/accrual/${accrual.id}/${action}`, token, body, headers);
      t.is(res.status, 400, `${name}: ${res.text}`);
      assertInvalid(t, res, 'Content-Type');
    }
    t.deepEqual(await get(`/api/accrual/${accrual.id}`), accrual, 'state, version and move fields unchanged');
  });
}

test('a move without a body, or with an empty one of any type, still works', async (t) => {
  const { token } = await adminSession();
  const pending = await accrualIn();
  const approved = await api('POST', `/api/accrual/${pending.id}/approve`, { token });
  t.is(approved.status, 200, approved.text);
  const invoiced = await api('POST', `/api/accrual/${pending.id}/invoice`, { token, raw: '', headers: { 'content-type': 'text/plain' } });
  t.is(invoiced.status, 200, invoiced.text);
  t.like(invoiced.body, { accrualStatus: 'INVOICED', invoiceNo: null });
  const other = await accrualIn();
  const cancelled = await api('POST', `/api/accrual/${other.id}/cancel`, { token, body: { reason: 'as JSON' } });
  t.like(cancelled.body, { accrualStatus: 'CANCELLED', cancelReason: 'as JSON' });
});

test('create and update answer a body that is not JSON the same way (400 naming Content-Type), and write nothing', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  const json = JSON.stringify({ crProcessId: tenant, partnerCode: 'TEXT-1', partnerName: 'Plain', partnerType: 'CUSTOMER' });
  const created = await api('POST', '/api/business-partner', { token, raw: json, headers: { 'content-type': 'text/plain' } });
  assertInvalid(t, created, 'Content-Type');
  const updated = await api('PUT', `/api/business-partner/${partner.id}`, {
    token,
    raw: JSON.stringify({ version: 0, partnerName: 'Renamed' }),
    headers: { 'content-type': 'text/plain' },
  });
  assertInvalid(t, updated, 'Content-Type');
  t.deepEqual(await get(`/api/business-partner/${partner.id}`), partner);
  const listed = await api('POST', '/api/business-partner/list', { token, body: { filter: { crProcessId: tenant } } });
  t.is(listed.body.totalElements, 1, 'only the partner made as JSON');
});

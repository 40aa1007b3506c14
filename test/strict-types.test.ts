/**
 * JSON types as the contract gives them (docs/interface.md#lists: page, size, version are int,
 * crProcessId long, status boolean; docs/interface.md#records: "Numbers for money are accepted on input as
 * decimal strings or numbers" — money alone). A numeric or boolean string where a number or a
 * boolean is due is 400 SVC-SYS-2001 naming the field, in a body and in a list filter alike.
 */
import test from 'ava';
import { adminSession, createPartner, freshTenant, unique } from './helpers/factories.ts';
import { assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';

const partnerBody = (crProcessId: number) => ({ crProcessId, partnerCode: unique('P-'), partnerName: 'Typed', partnerType: 'CUSTOMER' });

test('numbers are JSON numbers and booleans JSON booleans: a numeric or boolean string is 400 naming the field', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  assertInvalid(t, await api('POST', '/api/business-partner', { token, body: { ...partnerBody(tenant), crProcessId: String(tenant) } }), 'crProcessId');
  assertInvalid(t, await api('POST', '/api/business-partner', { token, body: { ...partnerBody(tenant), status: 'true' } }), 'status');
  assertInvalid(
    t,
    await api('POST', '/api/branch', {
      token,
      body: { crProcessId: tenant, businessPartnerId: String(partner.id), branchName: 'B', branchCode: unique('B-') },
    }),
    'businessPartnerId',
  );
  assertInvalid(t, await api('PUT', `/api/business-partner/${partner.id}`, { token, body: { version: '0', partnerName: 'Renamed' } }), 'version');
  for (const [name, value] of [
    ['page', '1'],
    ['size', '20'],
    ['page', true],
    ['size', 20.5],
  ] as const) {
    assertInvalid(t, await api('POST', '/api/business-partner/list', { token, body: { [name]: value, filter: { crProcessId: tenant } } }), name);
  }
  for (const [name, value] of [
    ['crProcessId', String(tenant)],
    ['status', 'true'],
    ['id', String(partner.id)],
    ['version', '0'],
    ['idFrom', '1'],
  ] as const) {
    const filter = { crProcessId: tenant, [name]: value };
    assertInvalid(t, await api('POST', '/api/business-partner/list', { token, body: { filter } }), `filter.${name}`);
  }
  assertInvalid(t, await api('POST', '/api/session/active/list', { apiKey: true, body: { filter: { crProcessId: '1' } } }), 'filter.crProcessId');
  const unchanged = await api('GET', `/api/business-partner/${partner.id}`, { token });
  t.like(unchanged.body, { version: 0, partnerName: partner.partnerName });
});

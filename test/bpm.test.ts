/** Partner management beyond the CRUD set (docs/interface.md#partner-operations, docs/interface.md#records, docs/interface.md#lists). */
import test from 'ava';
import { adminSession, createBranch, createPartner, freshTenant } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

test('GET /api/branch/by-partner/{id} answers the partner branches by id', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  const other = await createPartner(tenant);
  const first = await createBranch(tenant, partner.id);
  const second = await createBranch(tenant, partner.id);
  await createBranch(tenant, other.id);
  const res = await api('GET', `/api/branch/by-partner/${partner.id}`, { token });
  t.is(res.status, 200);
  t.deepEqual(res.body, [first, second]);
  const empty = await createPartner(tenant);
  t.deepEqual((await api('GET', `/api/branch/by-partner/${empty.id}`, { token })).body, []);
  // "(404 if the partner is not visible to the caller)"
  const missing = await api('GET', '/api/branch/by-partner/999999999', { token });
  t.is(missing.status, 404);
  t.is(missing.body.error_code, 'SVC-SYS-4001');
  t.is((await api('GET', '/api/branch/by-partner/x', { token })).status, 400);
});

test('deleting a partner that has branches is 409 SVC-SYS-4003 and deletes nothing', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  const branch = await createBranch(tenant, partner.id);
  const res = await api('DELETE', `/api/business-partner/${partner.id}`, { token });
  t.is(res.status, 409);
  t.is(res.body.error_code, 'SVC-SYS-4003');
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token })).status, 200);
  t.is((await api('DELETE', `/api/branch/${branch.id}`, { token })).status, 204);
  t.is((await api('DELETE', `/api/business-partner/${partner.id}`, { token })).status, 204);
});

test('a branch must name a partner of its own tenant: another tenant or a missing one is 400 SVC-SYS-2001', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const foreign = await createPartner(freshTenant());
  for (const businessPartnerId of [foreign.id, 999999999]) {
    const res = await api('POST', '/api/branch', { token, body: { crProcessId: tenant, businessPartnerId, branchName: 'X', branchCode: 'X' } });
    t.is(res.status, 400);
    t.is(res.body.error_code, 'SVC-SYS-2001');
    t.true(res.body.message.includes('businessPartnerId'));
  }
  const own = await createPartner(tenant);
  const branch = await createBranch(tenant, own.id);
  const moved = await api('PUT', `/api/branch/${branch.id}`, { token, body: { version: 0, businessPartnerId: foreign.id } });
  t.is(moved.status, 400);
  t.is((await api('GET', `/api/branch/${branch.id}`, { token })).body.businessPartnerId, own.id);
});

test('branchCode is unique within its partner (409 SVC-SYS-4005), not across partners', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  const other = await createPartner(tenant);
  await createBranch(tenant, partner.id, { branchCode: 'MAIN' });
  const duplicate = await api('POST', '/api/branch', {
    token,
    body: { crProcessId: tenant, businessPartnerId: partner.id, branchName: 'Again', branchCode: 'MAIN' },
  });
  t.is(duplicate.status, 409);
  t.is(duplicate.body.error_code, 'SVC-SYS-4005');
  await t.notThrowsAsync(createBranch(tenant, other.id, { branchCode: 'MAIN' }));
});

test('update clears a field sent as null, keeps fields not sent, and refuses to clear a required one', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant, { phone: '+90 1', email: 'p@example.com' });
  const cleared = await api('PUT', `/api/business-partner/${partner.id}`, { token, body: { version: 0, phone: null } });
  t.is(cleared.status, 200);
  t.is(cleared.body.phone, null);
  t.is(cleared.body.email, 'p@example.com');
  t.is(cleared.body.partnerName, partner.partnerName);
  const required = await api('PUT', `/api/business-partner/${partner.id}`, { token, body: { version: 1, partnerName: null } });
  t.is(required.status, 400);
  t.is(required.body.error_code, 'SVC-SYS-2001');
});

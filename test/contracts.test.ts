/**
 * Contracts, contacts and accruals beyond the walks (docs/interface.md#records): "endDate (not before
 * startDate)", dates "YYYY-MM-DD", the billingPeriod enum, unique numbers and codes per tenant,
 * references of the same tenant (and of the same partner or contract, docs/adr/0020-references-within-a-partner.md), and
 * "Deleting a record that others reference is 409 SVC-SYS-4003 (... a contract with items or
 * accruals ...)".
 */
import test from 'ava';
import {
  adminSession,
  createAccrual,
  createBranch,
  createContract,
  createContractItem,
  createPartner,
  createProduct,
  create,
  freshTenant,
} from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;

async function contractBody(crProcessId: number, overrides: Record<string, unknown> = {}) {
  const partner = await createPartner(crProcessId);
  return {
    crProcessId,
    contractNo: `C-${Math.random().toString(36).slice(2)}`,
    businessPartnerId: partner.id,
    startDate: '2026-01-01',
    currencyCode: 'EUR',
    billingPeriod: 'YEARLY',
    ...overrides,
  };
}

test('contract: an endDate before startDate is 400 SVC-SYS-2001 naming endDate ("not before startDate"), on create and update; the same day is fine', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  assertInvalid(
    t,
    await api('POST', '/api/contract', { token, body: await contractBody(tenant, { startDate: '2026-03-01', endDate: '2026-02-28' }) }),
    'endDate',
  );
  const same = await api('POST', '/api/contract', { token, body: await contractBody(tenant, { startDate: '2026-03-01', endDate: '2026-03-01' }) });
  t.is(same.status, 200, same.text);
  // an update of either date is held to the rule, which names endDate
  assertInvalid(t, await api('PUT', `/api/contract/${same.body.id}`, { token, body: { version: 0, endDate: '2026-01-31' } }), 'endDate');
  assertInvalid(t, await api('PUT', `/api/contract/${same.body.id}`, { token, body: { version: 0, startDate: '2026-04-01' } }), 'endDate');
  const open = await api('PUT', `/api/contract/${same.body.id}`, { token, body: { version: 0, endDate: null, startDate: '2026-04-01' } });
  t.is(open.status, 200, open.text);
  t.like(open.body, { startDate: '2026-04-01', endDate: null });
});

test('accrual: a periodEnd before periodStart is 400 SVC-SYS-2001 naming periodEnd', async (t) => {
  const tenant = freshTenant();
  const contract = await createContract(tenant);
  const res = await api('POST', '/api/accrual', {
    token: await admin(),
    body: { crProcessId: tenant, contractId: contract.id, periodStart: '2026-02-01', periodEnd: '2026-01-31', amount: '1', currencyCode: 'EUR' },
  });
  assertInvalid(t, res, 'periodEnd');
});

test('impossible or malformed dates ("Dates without time are YYYY-MM-DD") are 400 SVC-SYS-2001 naming the field; 29 February of a leap year is fine', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  for (const startDate of ['2025-02-30', '2025-02-29', '2025-13-01', '2025-04-31', '2025-00-10', '2026-1-5', '2026-01-01T00:00:00Z', '01.01.2026', 20260101]) {
    assertInvalid(t, await api('POST', '/api/contract', { token, body: await contractBody(tenant, { startDate }) }), 'startDate');
  }
  const leap = await api('POST', '/api/contract', { token, body: await contractBody(tenant, { startDate: '2024-02-29' }) });
  t.is(leap.status, 200, leap.text);
  t.is(leap.body.startDate, '2024-02-29');
});

test('billingPeriod is one of ONE_TIME, MONTHLY, QUARTERLY, YEARLY: each is accepted, anything else is 400 naming billingPeriod, also as a list filter', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  for (const billingPeriod of ['ONE_TIME', 'MONTHLY', 'QUARTERLY', 'YEARLY']) {
    const res = await api('POST', '/api/contract', { token, body: await contractBody(tenant, { billingPeriod }) });
    t.is(res.status, 200, res.text);
    t.is(res.body.billingPeriod, billingPeriod);
  }
  for (const billingPeriod of ['WEEKLY', 'monthly', '', 1, undefined]) {
    assertInvalid(t, await api('POST', '/api/contract', { token, body: await contractBody(tenant, { billingPeriod }) }), 'billingPeriod');
  }
  const listed = await api('POST', '/api/contract/list', { token, body: { filter: { crProcessId: tenant, billingPeriod: 'QUARTERLY' } } });
  t.is(listed.body.totalElements, 1, listed.text);
  assertInvalid(t, await api('POST', '/api/contract/list', { token, body: { filter: { crProcessId: tenant, billingPeriod: 'WEEKLY' } } }), 'billingPeriod');
  const byStatus = await api('POST', '/api/accrual/list', { token, body: { filter: { crProcessId: tenant, accrualStatus: 'PENDING' } } });
  t.is(byStatus.status, 200, byStatus.text);
  assertInvalid(t, await api('POST', '/api/accrual/list', { token, body: { filter: { crProcessId: tenant, accrualStatus: 'DONE' } } }), 'accrualStatus');
});

test('contractNo and productCode are unique per tenant (409 SVC-SYS-4005), not across tenants', async (t) => {
  const token = await admin();
  const [a, b] = [freshTenant(), freshTenant()];
  const contract = await createContract(a);
  const product = await createProduct(a);
  assertErrorBody(t, await api('POST', '/api/contract', { token, body: await contractBody(a, { contractNo: contract.contractNo }) }), 409, 'SVC-SYS-4005');
  const again = await api('POST', '/api/product', {
    token,
    body: { crProcessId: a, productCode: product.productCode, productName: 'Again', unitPrice: '1', currencyCode: 'EUR' },
  });
  assertErrorBody(t, again, 409, 'SVC-SYS-4005');
  t.is((await api('POST', '/api/contract', { token, body: await contractBody(b, { contractNo: contract.contractNo }) })).status, 200);
  t.is((await createProduct(b, { productCode: product.productCode })).productCode, product.productCode);
});

test("references must name a record of the same tenant: a contract, item or accrual naming another tenant's record is 400 SVC-SYS-2001 naming the field", async (t) => {
  const token = await admin();
  const [a, b] = [freshTenant(), freshTenant()];
  const [partnerOfB, contractOfB, productOfB] = await Promise.all([createPartner(b), createContract(b), createProduct(b)]);
  const contractOfA = await createContract(a);
  assertInvalid(t, await api('POST', '/api/contract', { token, body: { ...(await contractBody(a)), businessPartnerId: partnerOfB.id } }), 'businessPartnerId');
  assertInvalid(
    t,
    await api('POST', '/api/contract-item', {
      token,
      body: { crProcessId: a, contractId: contractOfB.id, productId: (await createProduct(a)).id, quantity: '1', unitPrice: '1' },
    }),
    'contractId',
  );
  assertInvalid(
    t,
    await api('POST', '/api/contract-item', {
      token,
      body: { crProcessId: a, contractId: contractOfA.id, productId: productOfB.id, quantity: '1', unitPrice: '1' },
    }),
    'productId',
  );
  assertInvalid(
    t,
    await api('POST', '/api/accrual', {
      token,
      body: { crProcessId: a, contractId: contractOfB.id, periodStart: '2026-01-01', periodEnd: '2026-01-31', amount: '1', currencyCode: 'EUR' },
    }),
    'contractId',
  );
  assertInvalid(
    t,
    await api('POST', '/api/contact', { token, body: { crProcessId: a, businessPartnerId: partnerOfB.id, firstName: 'A', lastName: 'B' } }),
    'businessPartnerId',
  );
});

test("a contact's branch must be a branch of the contact's partner: another partner's branch is 400 naming branchId, on create and when the partner changes", async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const [partner, other] = await Promise.all([createPartner(tenant), createPartner(tenant)]);
  const [branch, otherBranch] = await Promise.all([createBranch(tenant, partner.id), createBranch(tenant, other.id)]);
  const body = { crProcessId: tenant, businessPartnerId: partner.id, firstName: 'Ada', lastName: 'Lovelace' };
  assertInvalid(t, await api('POST', '/api/contact', { token, body: { ...body, branchId: otherBranch.id } }), 'branchId');
  const contact = await create('contact', { ...body, branchId: branch.id });
  assertInvalid(t, await api('PUT', `/api/contact/${contact.id}`, { token, body: { version: 0, businessPartnerId: other.id } }), 'branchId');
  const moved = await api('PUT', `/api/contact/${contact.id}`, { token, body: { version: 0, businessPartnerId: other.id, branchId: otherBranch.id } });
  t.is(moved.status, 200, moved.text);
  const noBranch = await api('PUT', `/api/contact/${contact.id}`, { token, body: { version: 1, businessPartnerId: partner.id, branchId: null } });
  t.is(noBranch.status, 200, noBranch.text);
});

test('a branch that contacts name cannot move to another partner: 409 SVC-SYS-4003, and it stays', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const [partner, other] = await Promise.all([createPartner(tenant), createPartner(tenant)]);
  const branch = await createBranch(tenant, partner.id);
  await create('contact', { crProcessId: tenant, businessPartnerId: partner.id, branchId: branch.id, firstName: 'A', lastName: 'B' });
  assertErrorBody(t, await api('PUT', `/api/branch/${branch.id}`, { token, body: { version: 0, businessPartnerId: other.id } }), 409, 'SVC-SYS-4003');
  t.is((await api('GET', `/api/branch/${branch.id}`, { token })).body.businessPartnerId, partner.id);
});

test("an accrual's contract item must be a line of the accrual's contract: another contract's item is 400 naming contractItemId; an item accruals name cannot move to another contract (409 SVC-SYS-4003)", async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const [contract, other] = await Promise.all([createContract(tenant), createContract(tenant)]);
  const [item, otherItem] = await Promise.all([createContractItem(tenant, contract.id), createContractItem(tenant, other.id)]);
  const body = { crProcessId: tenant, contractId: contract.id, periodStart: '2026-01-01', periodEnd: '2026-01-31', amount: '1', currencyCode: 'EUR' };
  assertInvalid(t, await api('POST', '/api/accrual', { token, body: { ...body, contractItemId: otherItem.id } }), 'contractItemId');
  const accrual = await create('accrual', { ...body, contractItemId: item.id });
  t.is(accrual.contractItemId, item.id);
  assertInvalid(t, await api('PUT', `/api/accrual/${accrual.id}`, { token, body: { version: 0, contractId: other.id } }), 'contractItemId');
  assertErrorBody(t, await api('PUT', `/api/contract-item/${item.id}`, { token, body: { version: 0, contractId: other.id } }), 409, 'SVC-SYS-4003');
});

test('deleting a referenced record is 409 SVC-SYS-4003 and deletes nothing: a partner with contracts or contacts, a contract with items or accruals, a product with items, a branch with contacts, an item with accruals', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const refused = async (path: string) => {
    assertErrorBody(t, await api('DELETE', `/api/${path}`, { token }), 409, 'SVC-SYS-4003');
    t.is((await api('GET', `/api/${path}`, { token })).status, 200, `${path} still stands`);
  };
  const [withContract, withContact] = await Promise.all([createPartner(tenant), createPartner(tenant)]);
  const contract = await createContract(tenant, { businessPartnerId: withContract.id });
  const branch = await createBranch(tenant, withContact.id);
  const contact = await create('contact', { crProcessId: tenant, businessPartnerId: withContact.id, branchId: branch.id, firstName: 'A', lastName: 'B' });
  await refused(`business-partner/${withContract.id}`);
  await refused(`business-partner/${withContact.id}`);
  await refused(`branch/${branch.id}`);

  const product = await createProduct(tenant);
  const item = await createContractItem(tenant, contract.id, { productId: product.id });
  await refused(`contract/${contract.id}`);
  await refused(`product/${product.id}`);

  const accruing = await createContract(tenant);
  const accrual = await createAccrual(tenant, { contractId: accruing.id });
  await refused(`contract/${accruing.id}`);
  const itemAccrual = await createAccrual(tenant, { contractId: contract.id, contractItemId: item.id });
  await refused(`contract-item/${item.id}`);

  // once the referrers are gone, so may the records be
  for (const path of [
    `accrual/${itemAccrual.id}`,
    `accrual/${accrual.id}`,
    `contract-item/${item.id}`,
    `contract/${accruing.id}`,
    `contract/${contract.id}`,
    `product/${product.id}`,
    `contact/${contact.id}`,
    `branch/${branch.id}`,
    `business-partner/${withContract.id}`,
    `business-partner/${withContact.id}`,
  ]) {
    t.is((await api('DELETE', `/api/${path}`, { token })).status, 204, path);
  }
});

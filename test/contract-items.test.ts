/**
 * Money and quantities (docs/interface.md#records): "Money is a decimal string ("1250.00", up to 4
 * decimals), never a float", "Numbers for money are accepted on input as decimal strings or numbers
 * and always returned as strings; quantity is a decimal too", and contract-item's "lineTotal
 * (read-only: quantity × unitPrice)", computed exactly by PostgreSQL.
 */
import test from 'ava';
import { adminSession, createContract, createContractItem, createProduct, freshTenant } from './helpers/factories.ts';
import { assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';

async function line(quantity: unknown, unitPrice: unknown, extra: Record<string, unknown> = {}) {
  const tenant = freshTenant();
  const contract = await createContract(tenant);
  const product = await createProduct(tenant);
  return api('POST', '/api/contract-item', {
    token: (await adminSession()).token,
    body: { crProcessId: tenant, contractId: contract.id, productId: product.id, quantity, unitPrice, ...extra },
  });
}

for (const [quantity, unitPrice, lineTotal] of [
  ['0.1', '0.2', '0.02'],
  ['3', '0.1', '0.30'],
  ['1.1', '1.1', '1.21'],
  ['0.3333', '3', '0.9999'],
  ['7', '1250.00', '8750.00'],
  ['2.5', '0.0001', '0.0003'],
  ['999999999999999.9999', '999999999999999.9999', '999999999999999999800000000000.00'],
] as const) {
  test(`lineTotal is quantity × unitPrice, exact: ${quantity} × ${unitPrice} = ${lineTotal}`, async (t) => {
    const res = await line(quantity, unitPrice);
    t.is(res.status, 200, res.text);
    t.is(res.body.lineTotal, lineTotal);
  });
}

test('lineTotal keeps money\'s 4 decimals: a product with more is rounded half away from zero (0.0005 × 0.5 = 0.00025 → "0.0003", 0.0001 × 0.0001 → "0.00")', async (t) => {
  t.is((await line('0.0005', '0.5')).body.lineTotal, '0.0003');
  t.is((await line('0.0001', '0.0001')).body.lineTotal, '0.00');
});

test('decimals are accepted as JSON numbers and come back as strings ("accepted on input as decimal strings or numbers and always returned as strings")', async (t) => {
  const res = await line(2.5, 4, {});
  t.is(res.status, 200, res.text);
  t.like(res.body, { quantity: '2.50', unitPrice: '4.00', lineTotal: '10.00' });
  const product = await createProduct(freshTenant(), { unitPrice: 0.1, vatRate: 18 });
  t.like(product, { unitPrice: '0.10', vatRate: '18.00' });
});

test('decimal strings round-trip as strings with two to four decimals: get, list and update show what was stored', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const contract = await createContract(tenant, { totalAmount: '1250.1250' });
  t.is(contract.totalAmount, '1250.125');
  const item = await createContractItem(tenant, contract.id, { quantity: '0.1', unitPrice: '0.2' });
  t.like(item, { quantity: '0.10', unitPrice: '0.20', lineTotal: '0.02' });
  t.deepEqual((await api('GET', `/api/contract-item/${item.id}`, { token })).body, item);
  const listed = await api('POST', '/api/contract-item/list', { token, body: { filter: { crProcessId: tenant, lineTotalFrom: '0.02', lineTotalTo: 0.02 } } });
  t.is(listed.status, 200, listed.text);
  t.deepEqual(listed.body.content, [item]);

  // an update of either factor recomputes lineTotal
  const updated = await api('PUT', `/api/contract-item/${item.id}`, { token, body: { version: 0, quantity: 3 } });
  t.is(updated.status, 200, updated.text);
  t.like(updated.body, { quantity: '3.00', unitPrice: '0.20', lineTotal: '0.60', version: 1 });
});

test('lineTotal is read-only: a value sent on create or update is ignored', async (t) => {
  const { token } = await adminSession();
  const res = await line('2', '5', { lineTotal: '999.00' });
  t.is(res.status, 200, res.text);
  t.is(res.body.lineTotal, '10.00');
  const updated = await api('PUT', `/api/contract-item/${res.body.id}`, { token, body: { version: 0, lineTotal: '1.00' } });
  t.is(updated.status, 200, updated.text);
  t.is(updated.body.lineTotal, '10.00');
});

test('quantity must be above 0 and unitPrice not below 0; a float or more than 4 decimals is 400 SVC-SYS-2001 naming the field', async (t) => {
  for (const [quantity, unitPrice, field] of [
    ['0', '1', 'quantity'],
    ['-1', '1', 'quantity'],
    ['0.00001', '1', 'quantity'],
    ['1e3', '1', 'quantity'],
    [true, '1', 'quantity'],
    ['1', '-0.01', 'unitPrice'],
    ['1', '1.23456', 'unitPrice'],
    ['1', 'NaN', 'unitPrice'],
    ['1', 0.1 + 0.2, 'unitPrice'],
  ] as const) {
    assertInvalid(t, await line(quantity, unitPrice), field);
  }
  t.is((await line('0.0001', '0')).status, 200, 'the smallest positive quantity and a price of 0 are fine');
});

test('product: unitPrice not below 0, vatRate between 0 and 100, currencyCode three capital letters (ISO 4217): else 400 naming the field', async (t) => {
  const { token } = await adminSession();
  const crProcessId = freshTenant();
  const body = { crProcessId, productCode: 'P', productName: 'P', unitPrice: '1.00', currencyCode: 'EUR' };
  for (const [change, field] of [
    [{ unitPrice: '-1' }, 'unitPrice'],
    [{ vatRate: '100.01' }, 'vatRate'],
    [{ vatRate: '-0.5' }, 'vatRate'],
    [{ currencyCode: 'eur' }, 'currencyCode'],
    [{ currencyCode: 'EURO' }, 'currencyCode'],
    [{ currencyCode: 'E1R' }, 'currencyCode'],
    [{ unitPrice: undefined }, 'unitPrice'],
    [{ currencyCode: undefined }, 'currencyCode'],
  ] as const) {
    assertInvalid(t, await api('POST', '/api/product', { token, body: { ...body, ...change } }), field);
  }
  const ok = await api('POST', '/api/product', { token, body: { ...body, vatRate: 100 } });
  t.is(ok.status, 200, ok.text);
  t.is(ok.body.vatRate, '100.00');
});

/**
 * GET /api/accrual/summary (docs/interface.md#partner-operations): a tenant's accruals counted and
 * summed by state and by month of periodStart, per currency, CANCELLED ones left out of the months;
 * accrual:read; crProcessId required; a user who is not a super user sees its own tenant only.
 */
import test from 'ava';
import { adminSession, createAccount, createAccrual, createContract, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';

async function move(id: number, action: 'approve' | 'invoice' | 'cancel'): Promise<void> {
  const res = await api('POST', `/api/accrual/${id}/${action}`, { token: (await adminSession()).token });
  if (res.status !== 200) throw new Error(`${action}: ${res.status} ${res.text}`);
}

function summary(query: string, token: string) {
  return api('GET', `/api/accrual/summary?${query}`, { token });
}

/** A tenant with accruals of known states, months and currencies. */
async function tenantWithAccruals() {
  const account = await createAccount();
  const tenant = account.crProcessId;
  const contractId = (await createContract(tenant)).id;
  const accrual = (periodStart: string, amount: string, currencyCode = 'EUR') =>
    createAccrual(tenant, { contractId, periodStart, periodEnd: periodStart, amount, currencyCode });
  const [a, b, c, d, e, f] = await Promise.all([
    accrual('2026-01-05', '100.50'),
    accrual('2026-01-20', '200.25'),
    accrual('2026-02-01', '10.00'),
    accrual('2026-02-15', '7.00', 'USD'),
    accrual('2026-03-01', '1000.00'),
    accrual('2025-12-31', '1.00'),
  ]);
  await move(a.id, 'approve');
  await move(b.id, 'approve');
  await move(b.id, 'invoice');
  await move(c.id, 'cancel');
  return { account, ids: [a, b, c, d, e, f].map((row) => row.id as number) };
}

test('figures: counts and amounts by state and by month, per currency, summed exactly; from and to bound periodStart', async (t) => {
  const { account } = await tenantWithAccruals();
  const { token } = await adminSession();
  const all = await summary(`crProcessId=${account.crProcessId}`, token);
  t.is(all.status, 200, all.text);
  t.deepEqual(all.body, {
    states: [
      { accrualStatus: 'APPROVED', currencyCode: 'EUR', count: 1, amount: '100.5000' },
      { accrualStatus: 'CANCELLED', currencyCode: 'EUR', count: 1, amount: '10.0000' },
      { accrualStatus: 'INVOICED', currencyCode: 'EUR', count: 1, amount: '200.2500' },
      { accrualStatus: 'PENDING', currencyCode: 'EUR', count: 2, amount: '1001.0000' },
      { accrualStatus: 'PENDING', currencyCode: 'USD', count: 1, amount: '7.0000' },
    ],
    months: [
      { month: '2025-12', currencyCode: 'EUR', count: 1, amount: '1.0000' },
      { month: '2026-01', currencyCode: 'EUR', count: 2, amount: '300.7500' },
      { month: '2026-02', currencyCode: 'USD', count: 1, amount: '7.0000' },
      { month: '2026-03', currencyCode: 'EUR', count: 1, amount: '1000.0000' },
    ],
  });

  const window = await summary(`crProcessId=${account.crProcessId}&from=2026-01-20&to=2026-03-01`, token);
  t.is(window.status, 200, window.text);
  t.deepEqual(
    window.body.months.map((row: any) => [row.month, row.count, row.amount]),
    [
      ['2026-01', 1, '200.2500'],
      ['2026-02', 1, '7.0000'],
      ['2026-03', 1, '1000.0000'],
    ],
    'both bounds are included',
  );
  t.is(
    window.body.states.reduce((sum: number, row: any) => sum + row.count, 0),
    4,
  );
});

test("tenant isolation: a user of A sees A's figures only, and naming B is 403 SVC-SYS-1003", async (t) => {
  const [a, b] = await Promise.all([tenantWithAccruals(), tenantWithAccruals()]);
  await createAccrual(b.account.crProcessId, { amount: '5.00' });
  const reader = await userWithRoles(a.account, ['accrual:read']);
  const own = await summary(`crProcessId=${a.account.crProcessId}`, reader.token);
  t.is(own.status, 200, own.text);
  t.is(
    own.body.states.reduce((sum: number, row: any) => sum + row.count, 0),
    6,
    "A's six accruals, none of B's",
  );
  assertErrorBody(t, await summary(`crProcessId=${b.account.crProcessId}`, reader.token), 403, 'SVC-SYS-1003');
});

test('role: accrual:read is needed (403 SVC-SYS-1003 without it); crProcessId is required (400 SVC-SYS-2002); a bad date or parameter is 400', async (t) => {
  const { account } = await tenantWithAccruals();
  const writer = await userWithRoles(account, ['accrual:write', 'accrual:approve']);
  assertErrorBody(t, await summary(`crProcessId=${account.crProcessId}`, writer.token), 403, 'SVC-SYS-1003');
  const { token } = await adminSession();
  assertErrorBody(t, await summary('', token), 400, 'SVC-SYS-2002');
  assertInvalid(t, await summary(`crProcessId=${account.crProcessId}&from=2026-13-01`, token), 'from');
  assertInvalid(t, await summary(`crProcessId=${account.crProcessId}&state=PENDING`, token), 'state');
});

test('an empty tenant has no rows', async (t) => {
  const account = await createAccount();
  const res = await summary(`crProcessId=${account.crProcessId}`, (await adminSession()).token);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { states: [], months: [] });
});

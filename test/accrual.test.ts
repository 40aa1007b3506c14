/**
 * The accrual's moves (docs/interface.md#accrual-moves): "Accrual: created as PENDING. approve: PENDING → APPROVED.
 * invoice (body optional: {invoiceNo}): APPROVED → INVOICED. cancel (body optional: {reason}):
 * PENDING or APPROVED → CANCELLED. Any other move: 409 SVC-SYS-4004. Each returns the updated
 * accrual with its version raised." Their roles (docs/interface.md#identity), tenant scope, concurrent moves, and what a
 * write may do to an accrual that has moved (docs/adr/0019-an-accrual-is-edited-only-while.md).
 */
import test from 'ava';
import { ACCRUAL_LIFECYCLE, ACCRUAL_MOVES, ACCRUAL_STATES } from '@platform/contracts/bpm/accrual-moves.ts';
import { adminSession, createAccount, createAccrual, freshTenant, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { api, type ApiResponse } from './helpers/platform.ts';

type Action = 'approve' | 'invoice' | 'cancel';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function move(id: number, action: Action, body?: unknown, token?: string): Promise<ApiResponse> {
  return api('POST', `/api/accrual/${id}/${action}`, { token: token ?? (await adminSession()).token, ...(body === undefined ? {} : { body }) });
}

async function get(id: number): Promise<any> {
  return (await api('GET', `/api/accrual/${id}`, { token: (await adminSession()).token })).body;
}

/** A new accrual of a fresh tenant, moved through `path` (each move must pass). */
async function accrualIn(...path: Action[]): Promise<any> {
  let record = await createAccrual(freshTenant());
  for (const action of path) {
    const res = await move(record.id, action);
    if (res.status !== 200) throw new Error(`${action}: ${res.status} ${res.text}`);
    record = res.body;
  }
  return record;
}

test('the declared machine (libs/contracts/src/bpm/accrual-moves.ts) is the one quoted above: states, moves, from-states, roles', (t) => {
  t.deepEqual([...ACCRUAL_STATES], ['PENDING', 'APPROVED', 'INVOICED', 'CANCELLED']);
  t.like(ACCRUAL_LIFECYCLE, { initial: 'PENDING', editableIn: ['PENDING'], deletableIn: ['PENDING', 'CANCELLED'] });
  t.deepEqual(
    Object.entries(ACCRUAL_MOVES).map(([name, move]) => [name, [...move.from], move.to, move.role, move.event]),
    [
      ['approve', ['PENDING'], 'APPROVED', 'accrual:approve', 'accrual.approved'],
      ['invoice', ['APPROVED'], 'INVOICED', 'accrual:invoice', 'accrual.invoiced'],
      ['cancel', ['PENDING', 'APPROVED'], 'CANCELLED', 'accrual:cancel', 'accrual.cancelled'],
    ],
  );
});

test("the API document words each move's entry from its declaration: from-states, to-state, role, the body field it takes", async (t) => {
  const document = (await api('GET', '/api/docs/openapi.json')).body;
  for (const [name, move] of Object.entries(ACCRUAL_MOVES)) {
    const operation = document.paths[`/api/accrual/{id}/${name}`].post;
    t.true(operation.summary.endsWith(`${move.from.join(' or ')} to ${move.to}`), operation.summary);
    t.true(operation.description.includes(`Needs ${move.role};`), operation.description);
    const given = 'given' in move ? move.given : undefined;
    const body = operation.requestBody?.content['application/json'].schema.properties;
    t.deepEqual(Object.keys(body ?? {}), given ? [given.param] : [], name);
  }
});

test('an accrual is created as PENDING ("created as PENDING"); accrualStatus and the move fields sent on create are ignored (read-only)', async (t) => {
  const created = await createAccrual(freshTenant(), { accrualStatus: 'INVOICED', approvedBy: 'intruder', invoiceNo: 'INV-1', cancelReason: 'x' });
  t.like(created, {
    accrualStatus: 'PENDING',
    version: 0,
    approvedAt: null,
    approvedBy: null,
    invoicedAt: null,
    invoiceNo: null,
    cancelledAt: null,
    cancelReason: null,
  });
});

test('approve: PENDING → APPROVED, with approvedAt and approvedBy recorded and the version raised', async (t) => {
  const pending = await accrualIn();
  const res = await move(pending.id, 'approve');
  t.is(res.status, 200, res.text);
  t.like(res.body, {
    id: pending.id,
    accrualStatus: 'APPROVED',
    version: pending.version + 1,
    approvedBy: 'admin',
    updatedBy: 'admin',
    amount: pending.amount,
  });
  t.regex(res.body.approvedAt, ISO_UTC);
  t.deepEqual(await get(pending.id), res.body, 'the answer is the stored accrual');
});

test('invoice (body optional: {invoiceNo}): APPROVED → INVOICED, with invoicedAt and invoiceNo recorded', async (t) => {
  const approved = await accrualIn('approve');
  const res = await move(approved.id, 'invoice', { invoiceNo: 'INV-2026-0001' });
  t.is(res.status, 200, res.text);
  t.like(res.body, { accrualStatus: 'INVOICED', version: approved.version + 1, invoiceNo: 'INV-2026-0001', approvedAt: approved.approvedAt });
  t.regex(res.body.invoicedAt, ISO_UTC);

  const withoutBody = await move((await accrualIn('approve')).id, 'invoice');
  t.is(withoutBody.status, 200, withoutBody.text);
  t.like(withoutBody.body, { accrualStatus: 'INVOICED', invoiceNo: null });
});

test('cancel (body optional: {reason}): PENDING → CANCELLED and APPROVED → CANCELLED, with cancelledAt and the reason recorded', async (t) => {
  const pending = await accrualIn();
  const fromPending = await move(pending.id, 'cancel', { reason: 'Contract ended early' });
  t.is(fromPending.status, 200, fromPending.text);
  t.like(fromPending.body, { accrualStatus: 'CANCELLED', version: 1, cancelReason: 'Contract ended early', approvedAt: null });
  t.regex(fromPending.body.cancelledAt, ISO_UTC);

  const approved = await accrualIn('approve');
  const fromApproved = await move(approved.id, 'cancel');
  t.is(fromApproved.status, 200, fromApproved.text);
  t.like(fromApproved.body, { accrualStatus: 'CANCELLED', version: approved.version + 1, cancelReason: null, approvedBy: 'admin' });
});

const REFUSED: readonly [string, Action[], Action][] = [
  ['PENDING', [], 'invoice'],
  ['APPROVED', ['approve'], 'approve'],
  ['INVOICED', ['approve', 'invoice'], 'approve'],
  ['INVOICED', ['approve', 'invoice'], 'invoice'],
  ['INVOICED', ['approve', 'invoice'], 'cancel'],
  ['CANCELLED', ['cancel'], 'approve'],
  ['CANCELLED', ['cancel'], 'invoice'],
  ['CANCELLED', ['cancel'], 'cancel'],
  ['CANCELLED (from APPROVED)', ['approve', 'cancel'], 'invoice'],
];

for (const [state, path, action] of REFUSED) {
  test(`${action} of a ${state} accrual is 409 SVC-SYS-4004 ("Any other move: 409 SVC-SYS-4004") and changes nothing`, async (t) => {
    const before = await accrualIn(...path);
    const res = await move(before.id, action, action === 'invoice' ? { invoiceNo: 'INV-X' } : action === 'cancel' ? { reason: 'late' } : undefined);
    assertErrorBody(t, res, 409, 'SVC-SYS-4004');
    t.deepEqual(await get(before.id), before);
  });
}

test('a move of an accrual that does not exist is 404 SVC-SYS-4001; a bad id or body is 400 SVC-SYS-2001', async (t) => {
  for (const action of ['approve', 'invoice', 'cancel'] as const) assertErrorBody(t, await move(999_999_999_999, action), 404, 'SVC-SYS-4001');
  const pending = await accrualIn();
  assertErrorBody(t, await api('POST', '/api/accrual/x/approve', { token: (await adminSession()).token }), 400, 'SVC-SYS-2001');
  for (const [action, body] of [
    ['invoice', { invoiceNo: 42 }],
    ['invoice', { reason: 'wrong field' }],
    ['cancel', { reason: 'x'.repeat(1001) }],
    ['cancel', []],
    ['approve', { note: 'no body fields' }],
  ] as const) {
    assertErrorBody(t, await move(pending.id, action, body), 400, 'SVC-SYS-2001');
  }
  t.deepEqual(await get(pending.id), pending, 'a refused move changes nothing');
});

test('each move needs its own role ("accrual:approve, accrual:invoice, accrual:cancel"): without it 403 SVC-SYS-1003; accrual:read, write and delete grant no move', async (t) => {
  const account = await createAccount();
  const [approver, invoicer, canceller, crud] = await Promise.all([
    userWithRoles(account, ['accrual:approve']),
    userWithRoles(account, ['accrual:invoice']),
    userWithRoles(account, ['accrual:cancel']),
    userWithRoles(account, ['accrual:read', 'accrual:write', 'accrual:delete']),
  ]);
  const holders: Record<Action, string> = { approve: approver.token, invoice: invoicer.token, cancel: canceller.token };
  const pending = await createAccrual(account.crProcessId);
  const approved = await createAccrual(account.crProcessId);
  t.is((await move(approved.id, 'approve')).status, 200);
  // an accrual each move may leave, so that only the role decides
  const target: Record<Action, any> = { approve: pending, invoice: await get(approved.id), cancel: await get(approved.id) };

  for (const action of ['approve', 'invoice', 'cancel'] as const) {
    for (const token of [
      crud.token,
      ...Object.entries(holders)
        .filter(([other]) => other !== action)
        .map(([, other]) => other),
    ]) {
      assertErrorBody(t, await move(target[action].id, action, undefined, token), 403, 'SVC-SYS-1003');
    }
    t.is((await get(target[action].id)).version, target[action].version, `${action}: a refused move changes nothing`);
  }
  const approvedNow = await move(pending.id, 'approve', undefined, approver.token);
  t.is(approvedNow.status, 200, approvedNow.text);
  t.is(approvedNow.body.approvedBy, approver.userCode);
  const cancelled = await move(pending.id, 'cancel', undefined, canceller.token);
  t.is(cancelled.status, 200, cancelled.text);
  const invoiced = await move(approved.id, 'invoice', { invoiceNo: 'INV-R' }, invoicer.token);
  t.is(invoiced.status, 200, invoiced.text);
});

test("a move of another tenant's accrual is 404 SVC-SYS-4001 for a user of A, as if it did not exist, and changes nothing", async (t) => {
  const [a, b] = await Promise.all([createAccount(), createAccount()]);
  const user = await userWithRoles(a, ['accrual:read', 'accrual:approve', 'accrual:invoice', 'accrual:cancel']);
  const ofB = await createAccrual(b.crProcessId);
  for (const action of ['approve', 'invoice', 'cancel'] as const) {
    assertErrorBody(t, await move(ofB.id, action, undefined, user.token), 404, 'SVC-SYS-4001');
  }
  t.deepEqual(await get(ofB.id), ofB);
  const ofA = await createAccrual(a.crProcessId);
  t.is((await move(ofA.id, 'approve', undefined, user.token)).status, 200);
});

test('PUT changes an accrual only while it is PENDING: an APPROVED, INVOICED or CANCELLED one is 409 SVC-SYS-4004 and unchanged', async (t) => {
  const { token } = await adminSession();
  const pending = await accrualIn();
  const ok = await api('PUT', `/api/accrual/${pending.id}`, { token, body: { version: 0, amount: '150.00', accrualStatus: 'INVOICED' } });
  t.is(ok.status, 200, ok.text);
  t.like(ok.body, { amount: '150.00', accrualStatus: 'PENDING', version: 1 }, 'accrualStatus is read-only: ignored');
  for (const path of [['approve'], ['approve', 'invoice'], ['cancel']] as Action[][]) {
    const moved = await accrualIn(...path);
    const res = await api('PUT', `/api/accrual/${moved.id}`, { token, body: { version: moved.version, amount: '1.00' } });
    assertErrorBody(t, res, 409, 'SVC-SYS-4004');
    t.deepEqual(await get(moved.id), moved);
  }
});

test('DELETE of an APPROVED or INVOICED accrual is 409 SVC-SYS-4004; a PENDING or CANCELLED one may go (204)', async (t) => {
  const { token } = await adminSession();
  for (const path of [['approve'], ['approve', 'invoice']] as Action[][]) {
    const moved = await accrualIn(...path);
    assertErrorBody(t, await api('DELETE', `/api/accrual/${moved.id}`, { token }), 409, 'SVC-SYS-4004');
    t.deepEqual(await get(moved.id), moved);
  }
  for (const path of [[], ['cancel'], ['approve', 'cancel']] as Action[][]) {
    const record = await accrualIn(...path);
    t.is((await api('DELETE', `/api/accrual/${record.id}`, { token })).status, 204, path.join(' '));
  }
});

test('20 concurrent approves of one PENDING accrual: exactly one is 200, the others 409 SVC-SYS-4004, and the version rises once', async (t) => {
  const pending = await accrualIn();
  const responses = await Promise.all(Array.from({ length: 20 }, () => move(pending.id, 'approve')));
  t.deepEqual(responses.map((res) => res.status).sort(), [200, ...Array<number>(19).fill(409)], responses.map((res) => res.text).join('\n'));
  for (const res of responses.filter((r) => r.status === 409)) t.is(res.body.error_code, 'SVC-SYS-4004');
  t.like(await get(pending.id), { accrualStatus: 'APPROVED', version: 1 });
});

test("an invoice and a cancel of one APPROVED accrual at once: exactly one wins (200), the other is 409 SVC-SYS-4004, and the accrual is in the winner's state", async (t) => {
  for (let round = 0; round < 5; round++) {
    const approved = await accrualIn('approve');
    const [invoiced, cancelled] = await Promise.all([move(approved.id, 'invoice', { invoiceNo: 'INV-RACE' }), move(approved.id, 'cancel', { reason: 'race' })]);
    t.deepEqual([invoiced.status, cancelled.status].sort(), [200, 409], `${invoiced.text}\n${cancelled.text}`);
    const [winner, loser] = invoiced.status === 200 ? [invoiced, cancelled] : [cancelled, invoiced];
    t.is(loser.body.error_code, 'SVC-SYS-4004');
    const after = await get(approved.id);
    t.deepEqual(after, winner.body);
    t.is(after.version, approved.version + 1);
    t.is(after.accrualStatus, invoiced.status === 200 ? 'INVOICED' : 'CANCELLED');
    // the winner's field is recorded, the loser's never
    t.deepEqual(
      { invoiceNo: after.invoiceNo, cancelReason: after.cancelReason },
      invoiced.status === 200 ? { invoiceNo: 'INV-RACE', cancelReason: null } : { invoiceNo: null, cancelReason: 'race' },
    );
  }
});

test('an approve and a cancel of one PENDING accrual at once: the outcome is one of the serial orders, never both lost or mixed (cancel first: approve 409; approve first: both 200 and CANCELLED)', async (t) => {
  for (let round = 0; round < 5; round++) {
    const pending = await accrualIn();
    const [approved, cancelled] = await Promise.all([move(pending.id, 'approve'), move(pending.id, 'cancel', { reason: 'race' })]);
    t.is(cancelled.status, 200, cancelled.text);
    const after = await get(pending.id);
    t.like(after, { accrualStatus: 'CANCELLED', cancelReason: 'race' });
    if (approved.status === 200) {
      // approve won the row first; cancel then moved APPROVED → CANCELLED
      t.like(after, { version: 2, approvedBy: 'admin' });
      t.is(approved.body.version, 1);
    } else {
      assertErrorBody(t, approved, 409, 'SVC-SYS-4004');
      t.like(after, { version: 1, approvedAt: null, approvedBy: null });
    }
  }
});

test('a PUT and an approve of one PENDING accrual at once: one order or the other, never an APPROVED accrual changed by the PUT', async (t) => {
  const { token } = await adminSession();
  for (let round = 0; round < 5; round++) {
    const pending = await accrualIn();
    const [updated, approved] = await Promise.all([
      api('PUT', `/api/accrual/${pending.id}`, { token, body: { version: 0, amount: '777.00' } }),
      move(pending.id, 'approve'),
    ]);
    t.is(approved.status, 200, approved.text);
    const after = await get(pending.id);
    t.is(after.accrualStatus, 'APPROVED');
    if (updated.status === 200) {
      t.like(after, { amount: '777.00', version: 2 });
    } else {
      t.true(['SVC-SYS-4004', 'SVC-SYS-4002'].includes(updated.body.error_code), updated.text);
      t.like(after, { amount: pending.amount, version: 1 });
    }
  }
});

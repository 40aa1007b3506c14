/**
 * Unique keys and references under concurrent writes (docs/interface.md#records: "a duplicate is 409
 * SVC-SYS-4005", "References (...Id) must name a record of the same tenant, else 400 SVC-SYS-2001",
 * "Deleting a record that others reference is 409 SVC-SYS-4003"). The database decides, in the
 * write's own statement, so no request races past a check another made a moment before.
 */
import test from 'ava';
import { adminSession, create, createAccount, createContract, createPartner, freshTenant, unique } from './helpers/factories.ts';
import { api, type ApiResponse } from './helpers/platform.ts';
import { brokenReferences } from './helpers/reference-audit.ts';

const CONCURRENT = 20;

function statuses(responses: readonly ApiResponse[]): number[] {
  return responses.map((res) => res.status).sort();
}

for (const [path, field, body] of [
  ['business-partner', 'partnerCode', (code: string, crProcessId: number) => ({ crProcessId, partnerCode: code, partnerName: 'Race', partnerType: 'BOTH' })],
  ['role-type', 'roleCode', (code: string, crProcessId: number) => ({ crProcessId, roleCode: code, roleName: 'Race' })],
] as const) {
  test(`${CONCURRENT} concurrent creates of one ${path}.${field}: exactly one is 200, the others 409 SVC-SYS-4005 naming ${field}`, async (t) => {
    const { token } = await adminSession();
    const crProcessId = freshTenant();
    const code = unique('race-');
    const responses = await Promise.all(Array.from({ length: CONCURRENT }, () => api('POST', `/api/${path}`, { token, body: body(code, crProcessId) })));
    t.deepEqual(statuses(responses), [200, ...Array<number>(CONCURRENT - 1).fill(409)], responses.map((res) => res.text).join('\n'));
    for (const res of responses.filter((r) => r.status === 409)) {
      t.is(res.body.error_code, 'SVC-SYS-4005');
      t.true(String(res.body.message).includes(field), res.text);
    }
    const list = await api('POST', `/api/${path}/list`, { token, body: { filter: { crProcessId, [field]: code } } });
    t.is(list.body.totalElements, 1, list.text);
  });
}

/**
 * Fires `references` creates that name a record together with that record's delete, and checks the
 * only two outcomes the contract allows: the delete is 204 and every reference was refused (400
 * SVC-SYS-2001 naming the field), or the delete is 409 SVC-SYS-4003, the record still stands and
 * every reference was made.
 */
async function raceDeleteAgainstReferences(
  t: import('ava').ExecutionContext,
  target: string,
  references: readonly (() => Promise<ApiResponse>)[],
  field: string,
  message?: string,
): Promise<void> {
  const { token } = await adminSession();
  const [deleted, ...made] = await Promise.all([api('DELETE', `/api/${target}`, { token }), ...references.map((write) => write())]);
  if (!deleted) return t.fail('no delete response');
  if (deleted.status === 204) {
    for (const res of made) {
      t.is(res.status, 400, res.text);
      t.is(res.body.error_code, 'SVC-SYS-2001', res.text);
      t.true(String(res.body.message).includes(field), res.text);
      if (message) t.is(res.body.message, message);
    }
  } else {
    t.is(deleted.status, 409, deleted.text);
    t.is(deleted.body.error_code, 'SVC-SYS-4003');
    t.deepEqual(
      made.map((res) => res.status),
      made.map(() => 200),
      made.map((res) => res.text).join('\n'),
    );
    t.is((await api('GET', `/api/${target}`, { token })).status, 200, 'a refused delete deletes nothing');
  }
  t.deepEqual(await brokenReferences(), [], 'no row names a missing record or one of another tenant');
}

test('a partner deleted while branches are created for it: either the delete is 409 SVC-SYS-4003 or every branch is 400 naming businessPartnerId, never a dangling branch', async (t) => {
  const { token } = await adminSession();
  const crProcessId = freshTenant();
  const partner = await createPartner(crProcessId);
  const branch = (): Promise<ApiResponse> =>
    api('POST', '/api/branch', { token, body: { crProcessId, businessPartnerId: partner.id, branchName: 'Race', branchCode: unique('B-') } });
  await raceDeleteAgainstReferences(
    t,
    `business-partner/${partner.id}`,
    Array.from({ length: 10 }, () => branch),
    'businessPartnerId',
  );
});

test('a group deleted while roles are granted to it: either the delete is 409 SVC-SYS-4003 or every group-role is 400 naming groupId, never a dangling group-role', async (t) => {
  const { token } = await adminSession();
  const crProcessId = freshTenant();
  const group = await create('group', { crProcessId, groupName: unique('Race group ') });
  const roleTypes = await Promise.all(Array.from({ length: 10 }, () => create('role-type', { crProcessId, roleCode: unique('race:'), roleName: 'Race' })));
  const grants = roleTypes.map(
    (roleType) => () => api('POST', '/api/group-role', { token, body: { crProcessId, groupId: group.id, roleTypeId: roleType.id } }),
  );
  await raceDeleteAgainstReferences(t, `group/${group.id}`, grants, 'groupId');
});

test('a user-info deleted while a user-process is created for it: either the delete is 409 SVC-SYS-4003 or the user-process is 400 "Field userCode names no user"', async (t) => {
  const { token } = await adminSession();
  const { accountNo, crProcessId } = await createAccount();
  const user = await create('user-info', { crProcessId, userCode: unique('race-'), userDescription: 'Race', password: 'race-password-1' });
  const process = (): Promise<ApiResponse> =>
    api('POST', '/api/user-process', { token, body: { crProcessId, userCode: user.userCode, userProcessSelects: [{ accountNo }] } });
  await raceDeleteAgainstReferences(t, `user-info/${user.id}`, [process], 'userCode', 'Field userCode names no user');
});

test('50 concurrent updates of one record with one version: exactly one is 200, the others 409 SVC-SYS-4002 ("Update with stale version"), and the version rises once', async (t) => {
  const { token } = await adminSession();
  const contract = await createContract(freshTenant());
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) => api('PUT', `/api/contract/${contract.id}`, { token, body: { version: 0, description: `writer ${i}` } })),
  );
  t.deepEqual(
    statuses(responses),
    [200, ...Array<number>(49).fill(409)],
    responses
      .filter((res) => res.status !== 409)
      .map((res) => res.text)
      .join('\n'),
  );
  for (const res of responses.filter((r) => r.status === 409)) t.is(res.body.error_code, 'SVC-SYS-4002');
  const winner = responses.find((res) => res.status === 200);
  const after = await api('GET', `/api/contract/${contract.id}`, { token });
  t.deepEqual(after.body, winner?.body);
  t.is(after.body.version, 1);
});

/**
 * GET /api/user-info/tenant-members (docs/interface.md#identity,
 * docs/adr/0125-a-tenant-finds-its-members-not-others.md): the users a group of the tenant may hold,
 * found by a tenant administrator wherever their user-info is kept, without listing another tenant's
 * users. The contract: "A group-member's userCode must name an existing user-info that has a select
 * for the group's tenant" (decisions.md §2 as docs/adr/0016), and tenant scope: "A create or list
 * naming another tenant gets 403 SVC-SYS-1003".
 */
import test from 'ava';
import { adminSession, create, createAccount, createUser, unique, userWithRoles } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

async function members(token: string, crProcessId: number, searchTerm?: string) {
  const query = new URLSearchParams({ crProcessId: String(crProcessId), ...(searchTerm === undefined ? {} : { searchTerm }) });
  return api('GET', `/api/user-info/tenant-members?${query.toString()}`, { token });
}

test("a tenant administrator finds its tenant's members, those of another tenant with a select for it too, and never a user without one", async (t) => {
  const [home, other] = await Promise.all([createAccount(), createAccount()]);
  const tag = unique('tm');
  const admin = await userWithRoles(home, ['user-info:read', 'group-member:write']);
  // one stored in the tenant, one stored in the other tenant with a select for both, one of the other tenant alone
  const local = await createUser(
    [home.accountNo],
    { crProcessId: home.crProcessId, userCode: `${tag}-local`, userDescription: 'Local Ada' },
    { crProcessId: home.crProcessId },
  );
  const visitor = await createUser(
    [home.accountNo, other.accountNo],
    { crProcessId: other.crProcessId, userCode: `${tag}-visitor`, userDescription: 'Visiting Grace' },
    { crProcessId: other.crProcessId },
  );
  const stranger = await createUser(
    [other.accountNo],
    { crProcessId: other.crProcessId, userCode: `${tag}-stranger`, userDescription: 'Stranger' },
    { crProcessId: other.crProcessId },
  );

  const found = await members(admin.token, home.crProcessId, tag);
  t.is(found.status, 200, found.text);
  t.deepEqual(found.body, [
    { userCode: local.user.userCode, userDescription: 'Local Ada' },
    { userCode: visitor.user.userCode, userDescription: 'Visiting Grace' },
  ]);
  t.false(JSON.stringify(found.body).includes(stranger.user.userCode), 'a user without a select for the tenant is not found');
  // by description, case-insensitively
  t.deepEqual(
    (await members(admin.token, home.crProcessId, 'visiting grace')).body.map((each: { userCode: string }) => each.userCode),
    [visitor.user.userCode],
  );

  // what it finds is what a group of the tenant may hold: the visitor is taken, the stranger refused
  const group = await create('group', { crProcessId: home.crProcessId, groupName: unique('Group ') });
  const joined = await api('POST', '/api/group-member', {
    token: admin.token,
    body: { crProcessId: home.crProcessId, groupId: group.id, userCode: visitor.user.userCode },
  });
  t.is(joined.status, 200, joined.text);
  const refused = await api('POST', '/api/group-member', {
    token: admin.token,
    body: { crProcessId: home.crProcessId, groupId: group.id, userCode: stranger.user.userCode },
  });
  t.is(refused.status, 400, refused.text);
  t.is(refused.body.error_code, 'SVC-SYS-2001');
});

test('another tenant is 403 SVC-SYS-1003 and a missing crProcessId 400 SVC-SYS-2002, for a tenant administrator', async (t) => {
  const [home, other] = await Promise.all([createAccount(), createAccount()]);
  const admin = await userWithRoles(home, ['user-info:read']);
  const elsewhere = await members(admin.token, other.crProcessId);
  t.is(elsewhere.status, 403, elsewhere.text);
  t.is(elsewhere.body.error_code, 'SVC-SYS-1003');
  const missing = await api('GET', '/api/user-info/tenant-members', { token: admin.token });
  t.is(missing.status, 400, missing.text);
  t.is(missing.body.error_code, 'SVC-SYS-2002');
  // a super user may name any tenant
  const { token } = await adminSession();
  t.is((await members(token, other.crProcessId)).status, 200);
});

test('without user-info:read it is 403, and a select or a role taken away counts at the next request', async (t) => {
  const home = await createAccount();
  const tag = unique('tr');
  const clerk = await userWithRoles(home, ['branch:read']);
  const noRole = await members(clerk.token, home.crProcessId);
  t.is(noRole.status, 403, noRole.text);
  t.is(noRole.body.error_code, 'SVC-SYS-1003');

  const admin = await userWithRoles(home, ['user-info:read']);
  const { token: superToken } = await adminSession();
  const other = await createAccount();
  const visitor = await createUser(
    [home.accountNo, other.accountNo],
    { crProcessId: other.crProcessId, userCode: `${tag}-v` },
    { crProcessId: other.crProcessId },
  );
  t.deepEqual(
    (await members(admin.token, home.crProcessId, tag)).body.map((each: { userCode: string }) => each.userCode),
    [visitor.user.userCode],
  );
  // the visitor's select for the tenant removed: gone at once
  const updated = await api('PUT', `/api/user-process/${visitor.process.id}`, {
    token: superToken,
    body: { version: visitor.process.version, userProcessSelects: [{ accountNo: other.accountNo }] },
  });
  t.is(updated.status, 200, updated.text);
  t.deepEqual((await members(admin.token, home.crProcessId, tag)).body, []);

  // the administrator's group made passive: the very next request is refused, with the same token
  const passive = await api('PUT', `/api/group/${admin.group.id}`, { token: superToken, body: { version: admin.group.version, status: false } });
  t.is(passive.status, 200, passive.text);
  t.is((await members(admin.token, home.crProcessId)).status, 403);
});

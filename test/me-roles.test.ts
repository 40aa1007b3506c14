/**
 * `roles` in GET /api/auth/me and switch-account's answer (docs/interface.md#auth): the role codes the
 * caller holds in its current tenant, sorted, read from the live state as the role checks read it,
 * so a change of group-roles or memberships shows at the very next request, with the same token.
 */
import test from 'ava';
import { adminSession, create, createAccount, createGroupWithRoles, createUser, login, roleTypeOf, sessionOf, userWithRoles } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

async function rolesOf(token: string): Promise<string[]> {
  const res = await api('GET', '/api/auth/me', { token });
  if (res.status !== 200) throw new Error(`me: ${res.status} ${res.text}`);
  return res.body.roles;
}

test("me lists the roles of the caller's groups in its tenant, sorted, and follows a group-role and a membership at the next request", async (t) => {
  const account = await createAccount();
  const clerk = await userWithRoles(account, ['branch:write', 'accrual:approve', 'branch:read']);
  t.deepEqual(await rolesOf(clerk.token), ['accrual:approve', 'branch:read', 'branch:write']);

  // a role given to the clerk's group: the same token shows it at once
  const { token: admin } = await adminSession();
  const roleType = await roleTypeOf(account.crProcessId, 'contract:read');
  const groupRole = await create('group-role', { crProcessId: account.crProcessId, groupId: clerk.group.id, roleTypeId: roleType.id }, admin);
  t.deepEqual(await rolesOf(clerk.token), ['accrual:approve', 'branch:read', 'branch:write', 'contract:read']);
  t.is((await api('DELETE', `/api/group-role/${groupRole.id}`, { token: admin })).status, 204);
  t.deepEqual(await rolesOf(clerk.token), ['accrual:approve', 'branch:read', 'branch:write']);

  // a second group granting an overlapping role: each code once
  await createGroupWithRoles(account.crProcessId, ['branch:read', 'product:read'], [clerk.userCode]);
  t.deepEqual(await rolesOf(clerk.token), ['accrual:approve', 'branch:read', 'branch:write', 'product:read']);

  // the membership of the first group removed: its roles go, the other group's stay
  const memberships = await api('POST', '/api/group-member/list', {
    token: admin,
    body: { page: 0, size: 5, filter: { crProcessId: account.crProcessId, groupId: clerk.group.id, userCode: clerk.userCode } },
  });
  t.is(memberships.body.content.length, 1, memberships.text);
  t.is((await api('DELETE', `/api/group-member/${memberships.body.content[0].id}`, { token: admin })).status, 204);
  t.deepEqual(await rolesOf(clerk.token), ['branch:read', 'product:read']);
});

test('switch-account answers the roles of the new tenant, and me keeps showing them', async (t) => {
  const [first, second] = await Promise.all([createAccount(), createAccount()]);
  const { user, password } = await createUser([first.accountNo, second.accountNo], { crProcessId: first.crProcessId }, { crProcessId: first.crProcessId });
  await createGroupWithRoles(first.crProcessId, ['branch:read', 'branch:write'], [user.userCode]);
  await createGroupWithRoles(second.crProcessId, ['accrual:invoice'], [user.userCode]);
  const session = await login(user.userCode, password);
  t.is(session.body.userProcess.userProcessSelects.length, 2);
  const me = await api('GET', '/api/auth/me', { token: session.token });
  t.like(me.body, { accountNo: first.accountNo, crProcessId: first.crProcessId, roles: ['branch:read', 'branch:write'] });

  const switched = await api('POST', '/api/auth/switch-account', { token: session.token, body: { accountNo: second.accountNo } });
  t.is(switched.status, 200, switched.text);
  t.like(switched.body, { accountNo: second.accountNo, crProcessId: second.crProcessId, roles: ['accrual:invoice'] });
  const { token } = sessionOf(switched);
  t.deepEqual((await api('GET', '/api/auth/me', { token })).body, switched.body, 'me in the new tenant answers what switch-account did');

  const back = await api('POST', '/api/auth/switch-account', { token, body: { accountNo: first.accountNo } });
  t.deepEqual(back.body.roles, ['branch:read', 'branch:write']);
});

test("a super user's roles are those it holds, none when it is in no group; a user who loses its tenant has none", async (t) => {
  const account = await createAccount();
  const tenant = { crProcessId: account.crProcessId };
  const plain = await createUser([account.accountNo], { ...tenant, superUser: true }, tenant);
  const superSession = await login(plain.user.userCode, plain.password);
  const me = await api('GET', '/api/auth/me', { token: superSession.token });
  t.like(me.body, { superUser: true, roles: [] });
  await createGroupWithRoles(account.crProcessId, ['user-info:read'], [plain.user.userCode]);
  t.deepEqual(await rolesOf(superSession.token), ['user-info:read']);

  // the clerk's account made passive: it no longer holds the tenant its token names, so no role counts there
  const clerk = await userWithRoles(account, ['branch:read']);
  t.deepEqual(await rolesOf(clerk.token), ['branch:read']);
  const { token: admin } = await adminSession();
  const current = await api('GET', `/api/account/${account.accountNo}`, { token: admin });
  const passive = await api('PUT', `/api/account/${account.accountNo}`, { token: admin, body: { version: current.body.version, status: false } });
  t.is(passive.status, 200, passive.text);
  const after = await api('GET', '/api/auth/me', { token: clerk.token });
  t.is(after.status, 200, after.text);
  t.deepEqual(after.body.roles, []);
  t.deepEqual(await rolesOf(superSession.token), ['user-info:read'], "a super user's roles in a tenant it may work in whatever the account's state");
});

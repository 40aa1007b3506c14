/**
 * The role matrix (docs/interface.md#identity): every resource of the registry and every operation it offers,
 * for users of one tenant who hold no role, `<path>:read`, `<path>:write` or `<path>:delete`, and
 * for the super user; then the groups and roles themselves. The users are built once, through the
 * public API, the way a client would.
 */
import test from 'ava';
import { offers, type Operation, type Resource } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import {
  adminSession,
  create,
  createAccount,
  createBranch,
  createGroupWithRoles,
  createPartner,
  createUser,
  login,
  roleTypeOf,
  unique,
  userWithRoles,
  type TenantUser,
} from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { keyPath, OPERATIONS, passing, perform, sampleOf, sampleRecord, stored, type Target } from './helpers/samples.ts';

type Action = 'read' | 'write' | 'delete';

/** docs/interface.md#identity: get, list and stats need read; create and update need write; delete needs delete. */
const ACTION_OF: Record<Operation, Action> = { get: 'read', list: 'read', stats: 'read', create: 'write', update: 'write', delete: 'delete' };

interface Fixture {
  account: { accountNo: string; crProcessId: number };
  nobody: TenantUser;
  holders: Map<string, Record<Action, TenantUser>>;
}

let fixture: Fixture;

test.before(async () => {
  const account = await createAccount();
  const holder = (path: string, action: Action) => userWithRoles(account, [`${path}:${action}`]);
  const [nobody, perResource] = await Promise.all([
    userWithRoles(account, []),
    Promise.all(
      registry.map(async (resource) => {
        const [read, write, del] = await Promise.all([holder(resource.path, 'read'), holder(resource.path, 'write'), holder(resource.path, 'delete')]);
        return [resource.path, { read, write, delete: del }] as const;
      }),
    ),
  ]);
  fixture = { account, nobody, holders: new Map(perResource) };
});

function holdersOf(resource: Resource): Record<Action, TenantUser> {
  const holders = fixture.holders.get(resource.path);
  if (!holders) throw new Error(`no users for ${resource.path}`);
  return holders;
}

/** A fresh record of the fixture's tenant (made by the admin) for a test's operations to act on (delete comes last). */
async function targetFor(resource: Resource): Promise<Target> {
  return { crProcessId: fixture.account.crProcessId, record: await sampleRecord(resource, fixture.account.crProcessId) };
}

const offered = (resource: Resource) => OPERATIONS.filter((operation) => offers(resource, operation));

for (const resource of registry) {
  const path = resource.path;
  // the tenant's own record (account, its dms-account-config) is shared by these tests: they take turns, so that versions hold
  const each = sampleOf(resource).tenantRecord || sampleOf(resource).onePerTenant ? test.serial : test;

  each(`${path}: a user of the tenant without any role gets 403 SVC-SYS-1003 on every operation it offers`, async (t) => {
    const target = await targetFor(resource);
    for (const operation of offered(resource)) {
      const res = await perform(resource, operation, fixture.nobody.token, target);
      t.is(res.status, 403, `${operation}: ${res.text}`);
      t.is(res.body.error_code, 'SVC-SYS-1003', operation);
    }
  });

  for (const action of ['read', 'write', 'delete'] as const) {
    const granted = offered(resource).filter((operation) => ACTION_OF[operation] === action);
    const refused = offered(resource).filter((operation) => ACTION_OF[operation] !== action);
    const passes = granted.length === 0 ? 'nothing passes' : `${granted.join(', ')} pass${granted.length === 1 ? 'es' : ''}`;
    const denied = refused.length === 0 ? '' : ` and ${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} 403 SVC-SYS-1003`;
    each(`${path}: with ${path}:${action} only, ${passes}${denied}`, async (t) => {
      const user = holdersOf(resource)[action];
      const target = await targetFor(resource);
      for (const operation of offered(resource)) {
        const res = await perform(resource, operation, user.token, target);
        if (granted.includes(operation)) {
          const expected = passing(resource, operation);
          t.is(res.status, expected.status, `${operation}: ${res.text}`);
          if (expected.code) t.is(res.body.error_code, expected.code, operation);
        } else {
          t.is(res.status, 403, `${operation}: ${res.text}`);
          t.is(res.body.error_code, 'SVC-SYS-1003', operation);
        }
      }
    });
  }

  if (offers(resource, 'get')) {
    // docs/interface.md#identity: "Missing role: 403 SVC-SYS-1003"; a record the caller may not see "gets 404,
    // as if it did not exist". The get reads its row in the same statement as the caller's access
    // (docs/adr/0039-a-get-reads-its-row-with-the-live.md), and the role is still checked
    // before the row: no role 403 whether or not the key names a record, with the role 404.
    test(`${path}: a get of a key that names no record is 403 SVC-SYS-1003 without ${path}:read, 404 SVC-SYS-4001 with it`, async (t) => {
      const missing = `/api/${path}/9000000000000`;
      const refused = await api('GET', missing, { token: fixture.nobody.token });
      t.is(refused.status, 403, refused.text);
      t.is(refused.body.error_code, 'SVC-SYS-1003');
      const absent = await api('GET', missing, { token: holdersOf(resource).read.token });
      t.is(absent.status, 404, absent.text);
      t.is(absent.body.error_code, 'SVC-SYS-4001');
    });
  }

  each(`${path}: a super user passes every role check`, async (t) => {
    const { token } = await adminSession();
    const target = await targetFor(resource);
    for (const operation of offered(resource)) {
      const res = await perform(resource, operation, token, target);
      const expected = passing(resource, operation);
      t.is(res.status, expected.status, `${operation}: ${res.text}`);
    }
  });
}

test('the roles of one resource grant nothing on another: for every ordered pair of resources, read, write and delete of the one are 403 SVC-SYS-1003 on every operation the other offers', async (t) => {
  // One record per resource to aim at; nothing may change it, so every pair shares it.
  const targets = new Map(await Promise.all(registry.map(async (resource) => [resource.path, await targetFor(resource)] as const)));
  const cases = registry.flatMap((holder) =>
    registry
      .filter((other) => other !== holder)
      .flatMap((other) =>
        (['read', 'write', 'delete'] as const).flatMap((action) => offered(other).map((operation) => ({ holder, action, other, operation }))),
      ),
  );
  t.is(new Set(cases.map((c) => `${c.holder.path}>${c.other.path}`)).size, registry.length * (registry.length - 1), 'every ordered pair');

  // In chunks, so that a few hundred requests do not all wait on the services at once.
  const CHUNK = 24;
  for (let start = 0; start < cases.length; start += CHUNK) {
    await Promise.all(
      cases.slice(start, start + CHUNK).map(async ({ holder, action, other, operation }) => {
        const res = await perform(other, operation, holdersOf(holder)[action].token, targets.get(other.path)!);
        const what = `${holder.path}:${action} on ${other.path} ${operation}`;
        t.is(res.status, 403, `${what}: ${res.text}`);
        t.is(res.body?.error_code, 'SVC-SYS-1003', what);
      }),
    );
  }

  // and no refused update or delete touched a target
  const { token } = await adminSession();
  for (const other of registry) {
    const target = targets.get(other.path)!;
    const after = await api('GET', `/api/${other.path}/${keyPath(other, target.record)}`, { token });
    t.is(after.status, 200, `${other.path}: ${after.text}`);
    t.deepEqual(stored(other, after.body), stored(other, target.record), other.path);
  }
});

test('/api/auth/* needs no role: me answers a user without any role', async (t) => {
  const res = await api('GET', '/api/auth/me', { token: fixture.nobody.token });
  t.is(res.status, 200, res.text);
  t.like(res.body, { userCode: fixture.nobody.userCode, crProcessId: fixture.account.crProcessId });
});

test('GET /api/branch/by-partner/{id} needs branch:read ("by-partner" is a read)', async (t) => {
  const tenant = fixture.account.crProcessId;
  const partner = await createPartner(tenant);
  const branch = await createBranch(tenant, partner.id);
  const byPartner = (token: string) => api('GET', `/api/branch/by-partner/${partner.id}`, { token });
  const branchHolders = holdersOf(registry.find((r) => r.path === 'branch')!);
  const partnerHolders = holdersOf(registry.find((r) => r.path === 'business-partner')!);

  const read = await byPartner(branchHolders.read.token);
  t.is(read.status, 200, read.text);
  t.deepEqual(
    read.body.map((b: { id: number }) => b.id),
    [branch.id],
  );
  for (const user of [fixture.nobody, branchHolders.write, branchHolders.delete, partnerHolders.read]) {
    const res = await byPartner(user.token);
    t.is(res.status, 403, res.text);
    t.is(res.body.error_code, 'SVC-SYS-1003');
  }
});

test("a group grants its roles from the member's next call, without a new login, and only while the group is active", async (t) => {
  const { crProcessId } = fixture.account;
  const user = await userWithRoles(fixture.account, []);
  const list = () => api('POST', '/api/business-partner/list', { token: user.token, body: { page: 0, size: 1, filter: { crProcessId } } });
  t.is((await list()).status, 403);

  const roleType = await roleTypeOf(crProcessId, 'business-partner:read');
  const grant = await create('group-role', { crProcessId, groupId: user.group.id, roleTypeId: roleType.id });
  t.is((await list()).status, 200);

  const { token } = await adminSession();
  const passive = await api('PUT', `/api/group/${user.group.id}`, { token, body: { version: user.group.version, status: false } });
  t.is(passive.status, 200, passive.text);
  t.is((await list()).status, 403, 'a passive group grants nothing');
  const active = await api('PUT', `/api/group/${user.group.id}`, { token, body: { version: passive.body.version, status: true } });
  t.is(active.status, 200, active.text);
  t.is((await list()).status, 200);

  t.is((await api('DELETE', `/api/group-role/${grant.id}`, { token })).status, 204);
  t.is((await list()).status, 403, 'the role is gone with its group-role');
});

test('roles come from every group the user is a member of, and a user with no group holds none', async (t) => {
  const { crProcessId, accountNo } = fixture.account;
  const { user, password } = await createUser([accountNo], { crProcessId }, { crProcessId });
  const session = await login(user.userCode, password);
  const get = (path: string) => api('POST', `/api/${path}/list`, { token: session.token, body: { filter: { crProcessId } } });
  t.is((await get('group')).status, 403);
  await createGroupWithRoles(crProcessId, ['group:read'], [user.userCode]);
  await createGroupWithRoles(crProcessId, ['role-type:read'], [user.userCode]);
  t.is((await get('group')).status, 200);
  t.is((await get('role-type')).status, 200);
  t.is((await get('group-role')).status, 403);
});

test('a user-info writer who is not a super user may neither change nor delete a super user: 403 SVC-SYS-1003', async (t) => {
  const { crProcessId } = fixture.account;
  const userInfo = registry.find((r) => r.path === 'user-info')!;
  const holders = holdersOf(userInfo);
  const superUser = await create('user-info', {
    crProcessId,
    userCode: unique('super-'),
    userDescription: 'Super',
    password: 'super-password-1',
    superUser: true,
  });

  const update = await api('PUT', `/api/user-info/${superUser.id}`, { token: holders.write.token, body: { version: 0, password: 'taken-over-1' } });
  t.is(update.status, 403, update.text);
  t.is(update.body.error_code, 'SVC-SYS-1003');
  const promote = await api('POST', '/api/user-info', {
    token: holders.write.token,
    body: { crProcessId, userCode: unique('promo-'), userDescription: 'Promoted', password: 'promoted-pass-1', superUser: true },
  });
  t.is(promote.status, 403, promote.text);
  const remove = await api('DELETE', `/api/user-info/${superUser.id}`, { token: holders.delete.token });
  t.is(remove.status, 403, remove.text);
  const { token } = await adminSession();
  t.like((await api('GET', `/api/user-info/${superUser.id}`, { token })).body, { version: 0, superUser: true });
});

// The groups' own rules (docs/interface.md#records): uniques per tenant, references, deletes of referenced records.

test('group-member: a userCode that names no user-info is 400 SVC-SYS-2001', async (t) => {
  const { crProcessId } = fixture.account;
  const group = await create('group', { crProcessId, groupName: unique('Group ') });
  const res = await api('POST', '/api/group-member', {
    token: (await adminSession()).token,
    body: { crProcessId, groupId: group.id, userCode: unique('nobody-') },
  });
  t.is(res.status, 400, res.text);
  t.is(res.body.error_code, 'SVC-SYS-2001');
});

test('duplicates are 409 SVC-SYS-4005: roleCode and groupName per tenant, a member or a role twice in a group', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = fixture.account;
  const roleCode = unique('dup:');
  const groupName = unique('Dup group ');
  const roleType = await create('role-type', { crProcessId, roleCode, roleName: 'Dup' });
  const group = await create('group', { crProcessId, groupName });
  await create('group-member', { crProcessId, groupId: group.id, userCode: fixture.nobody.userCode });
  await create('group-role', { crProcessId, groupId: group.id, roleTypeId: roleType.id });
  for (const [path, body] of [
    ['role-type', { crProcessId, roleCode, roleName: 'Dup again' }],
    ['group', { crProcessId, groupName }],
    ['group-member', { crProcessId, groupId: group.id, userCode: fixture.nobody.userCode }],
    ['group-role', { crProcessId, groupId: group.id, roleTypeId: roleType.id }],
  ] as const) {
    const res = await api('POST', `/api/${path}`, { token, body });
    t.is(res.status, 409, `${path}: ${res.text}`);
    t.is(res.body.error_code, 'SVC-SYS-4005', path);
  }
  // unique per tenant: the same code and name in another tenant are fine
  const other = (await createAccount()).crProcessId;
  t.is((await api('POST', '/api/role-type', { token, body: { crProcessId: other, roleCode, roleName: 'Dup' } })).status, 200);
  t.is((await api('POST', '/api/group', { token, body: { crProcessId: other, groupName } })).status, 200);
});

test('deleting a group with members or roles, a role-type a group grants, or a user-info a group-member names is 409 SVC-SYS-4003', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = fixture.account;
  // a member has a select for the group's tenant, so its user-process names it too
  const { user, process } = await createUser([fixture.account.accountNo], { crProcessId }, { crProcessId });
  const roleType = await create('role-type', { crProcessId, roleCode: unique('ref:'), roleName: 'Referenced' });
  const withMember = await create('group', { crProcessId, groupName: unique('Group ') });
  const withRole = await create('group', { crProcessId, groupName: unique('Group ') });
  const member = await create('group-member', { crProcessId, groupId: withMember.id, userCode: user.userCode });
  const grant = await create('group-role', { crProcessId, groupId: withRole.id, roleTypeId: roleType.id });

  for (const path of [`/api/group/${withMember.id}`, `/api/group/${withRole.id}`, `/api/role-type/${roleType.id}`, `/api/user-info/${user.id}`]) {
    const res = await api('DELETE', path, { token });
    t.is(res.status, 409, `${path}: ${res.text}`);
    t.is(res.body.error_code, 'SVC-SYS-4003', path);
  }
  // once the links are gone, so may the records be
  t.is((await api('DELETE', `/api/group-member/${member.id}`, { token })).status, 204);
  t.is((await api('DELETE', `/api/group-role/${grant.id}`, { token })).status, 204);
  t.is((await api('DELETE', `/api/user-info/${user.id}`, { token })).status, 409, 'the user-process still names the user');
  t.is((await api('DELETE', `/api/user-process/${process.id}`, { token })).status, 204);
  for (const path of [`/api/group/${withMember.id}`, `/api/group/${withRole.id}`, `/api/role-type/${roleType.id}`, `/api/user-info/${user.id}`]) {
    t.is((await api('DELETE', path, { token })).status, 204, path);
  }
});

/**
 * The cross-tenant matrix (docs/interface.md#identity, "Tenant scope"): for every resource of the registry and
 * every operation it offers, a user of tenant A who holds every role of that resource in A meets
 * tenant B's records as if they did not exist, may not name B, counts only A's records, and works
 * normally in A. The tests of this file take turns, since the statistics count tenant A as a whole.
 */
import test from 'ava';
import { offers, type Operation, type Resource } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import {
  accountOf,
  adminSession,
  create,
  createAccount,
  createBranch,
  createGroupWithRoles,
  createPartner,
  createUser,
  login,
  sessionOf,
  unique,
  userWithRoles,
  type TenantUser,
} from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { keyPath, passing, perform, sampleOf, sampleRecord, stored } from './helpers/samples.ts';

interface Fixture {
  a: { accountNo: string; crProcessId: number };
  b: { accountNo: string; crProcessId: number };
  /** A user of A holding every role of every resource in A. */
  user: TenantUser;
}

let fixture: Fixture;

test.before(async () => {
  const [a, b] = await Promise.all([createAccount(), createAccount()]);
  const roles = registry.flatMap((resource) => ['read', 'write', 'delete'].map((action) => `${resource.path}:${action}`));
  fixture = { a, b, user: await userWithRoles(a, roles) };
});

const admin = async () => (await adminSession()).token;

async function stats(resource: Resource, token: string, crProcessId?: number): Promise<unknown> {
  const res = await api('GET', `/api/${resource.path}/stats${crProcessId === undefined ? '' : `?crProcessId=${crProcessId}`}`, { token });
  if (res.status !== 200) throw new Error(`stats ${resource.path}: ${res.status} ${res.text}`);
  return res.body;
}

async function count(resource: Resource, crProcessId: number): Promise<number> {
  const res = await api('POST', `/api/${resource.path}/list`, { token: await admin(), body: { page: 0, size: 1, filter: { crProcessId } } });
  if (res.status !== 200) throw new Error(`list ${resource.path}: ${res.status} ${res.text}`);
  return res.body.totalElements;
}

for (const resource of registry) {
  const path = resource.path;
  const sample = sampleOf(resource);

  const addressed = (['get', 'update', 'delete'] as const).filter((operation) => offers(resource, operation));
  test.serial(
    `${path}: ${[...addressed, 'history'].join(', ')} of tenant B's record are 404 SVC-SYS-4001 for a user of A, as if it did not exist, and leave it unchanged`,
    async (t) => {
      const { b, user } = fixture;
      const record = await sampleRecord(resource, b.crProcessId);
      for (const operation of addressed) {
        const res = await perform(resource, operation, user.token, { crProcessId: b.crProcessId, record });
        t.is(res.status, 404, `${operation}: ${res.text}`);
        t.is(res.body.error_code, 'SVC-SYS-4001', operation);
      }
      // its history too (docs/interface.md#history), whether or not the record has events
      const history = await api('GET', `/api/${path}/${keyPath(resource, record)}/history`, { token: user.token });
      t.is(history.status, 404, `history: ${history.text}`);
      t.is(history.body.error_code, 'SVC-SYS-4001', 'history');
      const after = await api('GET', `/api/${path}/${keyPath(resource, record)}`, { token: await admin() });
      t.deepEqual(stored(resource, after.body), stored(resource, record));
    },
  );

  const naming = (['create', 'list'] as const).filter((operation) => offers(resource, operation));
  test.serial(`${path}: ${naming.join(' or ')} naming tenant B is 403 SVC-SYS-1003 for a user of A, and creates nothing`, async (t) => {
    const { b, user } = fixture;
    const before = await count(resource, b.crProcessId);
    for (const operation of naming) {
      const res = await perform(resource, operation, user.token, { crProcessId: b.crProcessId, record: {} });
      t.is(res.status, 403, `${operation}: ${res.text}`);
      t.is(res.body.error_code, 'SVC-SYS-1003', operation);
    }
    t.is(await count(resource, b.crProcessId), before);
  });

  if (offers(resource, 'stats')) {
    test.serial(`${path}: stats of a user of A count only A's records ("?crProcessId=B" is ignored for a user who is not a super user)`, async (t) => {
      const { a, b, user } = fixture;
      const token = await admin();
      // one passive record in B, so that B's counts differ from A's
      const record = await sampleRecord(resource, b.crProcessId);
      const passive = await api('PUT', `/api/${path}/${keyPath(resource, record)}`, { token, body: { version: record.version, status: false } });
      t.is(passive.status, 200, passive.text);
      try {
        const ofA = await stats(resource, token, a.crProcessId);
        t.notDeepEqual(await stats(resource, token, b.crProcessId), ofA);
        t.deepEqual(await stats(resource, user.token, b.crProcessId), ofA);
        t.deepEqual(await stats(resource, user.token), ofA);
      } finally {
        await api('PUT', `/api/${path}/${keyPath(resource, record)}`, { token, body: { version: passive.body.version, status: true } });
      }
    });
  }

  test.serial(`${path}: the same user works normally in its own tenant A`, async (t) => {
    const { a, user } = fixture;
    const ok = (operation: Operation) => passing(resource, operation);
    let record: any;
    if (sample.tenantRecord) {
      // the tenant itself: it exists, so create is a duplicate and delete is refused while users name it
      record = await accountOf(a.crProcessId);
      for (const operation of ['create', 'delete'] as const) {
        const res = await perform(resource, operation, user.token, { crProcessId: a.crProcessId, record });
        t.is(res.status, ok(operation).status, `${operation}: ${res.text}`);
        t.is(res.body.error_code, ok(operation).code, operation);
      }
    } else if (!offers(resource, 'create')) {
      // read-only (license-history): records the platform wrote in tenant A
      record = await sampleRecord(resource, a.crProcessId);
    } else {
      const created = await api('POST', `/api/${path}`, { token: user.token, body: await sample.create(a.crProcessId) });
      t.is(created.status, 200, created.text);
      t.like(created.body, { crProcessId: a.crProcessId, version: 0, createdBy: user.userCode });
      record = created.body;
    }
    const key = keyPath(resource, record);
    const got = await api('GET', `/api/${path}/${key}`, { token: user.token });
    t.is(got.status, 200, got.text);
    t.deepEqual(stored(resource, got.body), stored(resource, record));

    let latest = got.body;
    if (offers(resource, 'update')) {
      const changes = sample.update();
      const updated = await api('PUT', `/api/${path}/${key}`, { token: user.token, body: { version: record.version, ...changes } });
      t.is(updated.status, 200, updated.text);
      t.like(updated.body, { ...changes, version: record.version + 1, updatedBy: user.userCode });
      latest = updated.body;
      const history = await api('GET', `/api/${path}/${key}/history`, { token: user.token });
      t.is(history.status, 200, history.text);
      t.like(history.body.content[0], { type: `${path}.updated`, userCode: user.userCode, version: record.version + 1 });
    }

    const listed = await api('POST', `/api/${path}/list`, { token: user.token, body: { filter: { crProcessId: a.crProcessId, id: record.id } } });
    t.is(listed.status, 200, listed.text);
    t.deepEqual(
      listed.body.content.map((item: Record<string, unknown>) => stored(resource, item)),
      [stored(resource, latest)],
    );

    if (!sample.tenantRecord && offers(resource, 'delete')) {
      t.is((await api('DELETE', `/api/${path}/${key}`, { token: user.token })).status, 204);
      t.is((await api('GET', `/api/${path}/${key}`, { token: user.token })).status, 404);
    }
  });
}

test.serial(
  'GET /api/branch/by-partner/{id} of a partner of tenant B is 404 SVC-SYS-4001 for a user of A ("404 if the partner is not visible to the caller"); a super user sees its branches',
  async (t) => {
    const { a, b, user } = fixture;
    const [partnerOfA, partnerOfB] = await Promise.all([createPartner(a.crProcessId), createPartner(b.crProcessId)]);
    const [branchOfA, branchesOfB] = await Promise.all([
      createBranch(a.crProcessId, partnerOfA.id),
      Promise.all([createBranch(b.crProcessId, partnerOfB.id), createBranch(b.crProcessId, partnerOfB.id)]),
    ]);
    const byPartner = (token: string, partnerId: number) => api('GET', `/api/branch/by-partner/${partnerId}`, { token });

    const hidden = await byPartner(user.token, partnerOfB.id);
    t.is(hidden.status, 404, hidden.text);
    t.is(hidden.body.error_code, 'SVC-SYS-4001');
    // the same user, the same roles, its own tenant's partner
    const own = await byPartner(user.token, partnerOfA.id);
    t.is(own.status, 200, own.text);
    t.deepEqual(own.body, [branchOfA]);

    const asSuper = await byPartner(await admin(), partnerOfB.id);
    t.is(asSuper.status, 200, asSuper.text);
    t.deepEqual(
      asSuper.body,
      [...branchesOfB].sort((x, y) => x.id - y.id),
    );
  },
);

test.serial(
  "user-process: a user who is not a super user may name only its own tenant's account in userProcessSelects (else 403 SVC-SYS-1003), and changes a user-process only while all its selects are of that tenant",
  async (t) => {
    const { a, b, user } = fixture;
    const member = await create('user-info', { crProcessId: a.crProcessId, userCode: unique('sel-'), userDescription: 'Selects', password: 'selects-pass-1' });
    const body = (accountNos: string[]) => ({
      crProcessId: a.crProcessId,
      userCode: member.userCode,
      userProcessSelects: accountNos.map((accountNo) => ({ accountNo })),
    });

    for (const accountNos of [[b.accountNo], [a.accountNo, b.accountNo]]) {
      const res = await api('POST', '/api/user-process', { token: user.token, body: body(accountNos) });
      t.is(res.status, 403, res.text);
      t.is(res.body.error_code, 'SVC-SYS-1003');
    }
    // a super user links the user to both tenants: it is no longer wholly A's user, so A's user
    // administrator may neither rewrite nor delete its user-process
    const linked = await create('user-process', body([a.accountNo, b.accountNo]));
    for (const [method, request] of [
      ['PUT', { version: 0, userProcessSelects: [{ accountNo: a.accountNo }] }],
      ['DELETE', undefined],
    ] as const) {
      const res = await api(method, `/api/user-process/${linked.id}`, { token: user.token, body: request });
      t.is(res.status, 403, `${method}: ${res.text}`);
      t.is(res.body.error_code, 'SVC-SYS-1003', method);
    }
    const after = await api('GET', `/api/user-process/${linked.id}`, { token: await admin() });
    t.deepEqual(after.body.userProcessSelects.map((s: { accountNo: string }) => s.accountNo).sort(), [a.accountNo, b.accountNo].sort());
    // once the super user has taken B away, the user is wholly A's again
    const narrowed = await api('PUT', `/api/user-process/${linked.id}`, {
      token: await admin(),
      body: { version: 0, userProcessSelects: [{ accountNo: a.accountNo }] },
    });
    t.is(narrowed.status, 200, narrowed.text);
    const renamed = await api('PUT', `/api/user-process/${linked.id}`, { token: user.token, body: { version: 1, userDescription: 'Renamed by A' } });
    t.is(renamed.status, 200, renamed.text);
  },
);

test.serial('references must name a record of the same tenant: a group or role-type of tenant B is 400 SVC-SYS-2001', async (t) => {
  const { a, b, user } = fixture;
  const [groupOfB, roleTypeOfB, groupOfA] = await Promise.all([
    create('group', { crProcessId: b.crProcessId, groupName: unique('B group ') }),
    create('role-type', { crProcessId: b.crProcessId, roleCode: unique('b:'), roleName: 'B role' }),
    create('group', { crProcessId: a.crProcessId, groupName: unique('A group ') }),
  ]);
  for (const [path, body, field] of [
    ['group-member', { crProcessId: a.crProcessId, groupId: groupOfB.id, userCode: user.userCode }, 'groupId'],
    ['group-role', { crProcessId: a.crProcessId, groupId: groupOfA.id, roleTypeId: roleTypeOfB.id }, 'roleTypeId'],
  ] as const) {
    const res = await api('POST', `/api/${path}`, { token: user.token, body });
    t.is(res.status, 400, `${path}: ${res.text}`);
    t.is(res.body.error_code, 'SVC-SYS-2001', path);
    t.regex(res.body.message, new RegExp(field), path);
  }
});

test.serial(
  "a group-member must have a select for the group's tenant: a user of another tenant is 400 SVC-SYS-2001, an unknown userCode says so",
  async (t) => {
    const { a, b, user } = fixture;
    const other = await createUser([b.accountNo], { crProcessId: b.crProcessId }, { crProcessId: b.crProcessId });
    const group = await create('group', { crProcessId: a.crProcessId, groupName: unique('A group ') });
    const add = (userCode: string) =>
      api('POST', '/api/group-member', { token: user.token, body: { crProcessId: a.crProcessId, groupId: group.id, userCode } });

    const foreign = await add(other.user.userCode);
    t.is(foreign.status, 400, foreign.text);
    t.is(foreign.body.error_code, 'SVC-SYS-2001');
    t.is(foreign.body.message, 'The user named in userCode has no userProcessSelect for this tenant');
    const unknown = await add(unique('nobody-'));
    t.is(unknown.status, 400, unknown.text);
    t.is(unknown.body.error_code, 'SVC-SYS-2001');
    t.is(unknown.body.message, 'Field userCode names no user');
    // nothing of the refused writes holds the other tenant's user: its administrators may delete it
    // once its own user-process is gone
    const token = await admin();
    t.is((await api('DELETE', `/api/user-process/${other.process.id}`, { token })).status, 204);
    t.is((await api('DELETE', `/api/user-info/${other.user.id}`, { token })).status, 204);
    // the control: a user of A may be made a member
    t.is((await add(user.userCode)).status, 200);
  },
);

test.serial('roles are those of the current tenant: a group of B grants nothing in A, and applies after switch-account to B', async (t) => {
  const { a, b } = fixture;
  const { user, password } = await createUser([a.accountNo, b.accountNo], { crProcessId: a.crProcessId }, { crProcessId: a.crProcessId });
  await createGroupWithRoles(b.crProcessId, ['branch:read'], [user.userCode]);
  const inA = await login(user.userCode, password);
  const list = (token: string, crProcessId: number) => api('POST', '/api/branch/list', { token, body: { filter: { crProcessId } } });

  const refused = await list(inA.token, a.crProcessId);
  t.is(refused.status, 403, refused.text);
  t.is(refused.body.error_code, 'SVC-SYS-1003');
  t.is((await list(inA.token, b.crProcessId)).status, 403, 'B is not the current tenant');

  const switched = await api('POST', '/api/auth/switch-account', { token: inA.token, body: { accountNo: b.accountNo } });
  t.is(switched.status, 200, switched.text);
  const inB = sessionOf(switched).token;
  const allowed = await list(inB, b.crProcessId);
  t.is(allowed.status, 200, allowed.text);
  t.is((await list(inB, a.crProcessId)).status, 403, 'A is no longer the current tenant');
});

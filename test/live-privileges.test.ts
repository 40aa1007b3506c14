/**
 * Privileges follow the live state: every change to what a user may do counts from the very next
 * request, whatever token the user holds (docs/interface.md#identity: "A super user may name any tenant. The
 * services enforce this themselves, not only the gateway"; "Password change raises tokenVersion;
 * the very next request with any older token is 401"). The token says who the caller is and which
 * tenant it works in; the superUser flag, the tenants held (userProcessSelects of active accounts)
 * and the roles (active groups, memberships, group-roles, role-types) are read on every call.
 */
import test from 'ava';
import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { BusinessPartnerServiceClient } from '@platform/kit/gen/platform/bpm/v1/business_partner.ts';
import { registry } from '../gateway/src/registry.ts';
import {
  adminSession,
  create,
  createAccount,
  createBranch,
  createGroupWithRoles,
  createPartner,
  createUser,
  freshTenant,
  login,
  roleTypeOf,
  unique,
  userWithRoles,
} from './helpers/factories.ts';
import { api, platform, type ApiResponse } from './helpers/platform.ts';
import { claimsOf, signWithPlatformSecret } from './helpers/tokens.ts';

const admin = async () => (await adminSession()).token;

/** PUT as the admin with the record's current version; fails loudly on anything but 200. */
async function adminUpdate(path: string, key: string | number, changes: Record<string, unknown>): Promise<any> {
  const token = await admin();
  const current = await api('GET', `/api/${path}/${key}`, { token });
  const res = await api('PUT', `/api/${path}/${key}`, { token, body: { version: current.body.version, ...changes } });
  if (res.status !== 200) throw new Error(`update ${path}/${key}: ${res.status} ${res.text}`);
  return res.body;
}

function expectError(t: { is(a: unknown, b: unknown, m?: string): void }, res: ApiResponse, status: number, code: string, what: string): void {
  t.is(res.status, status, `${what}: ${res.text}`);
  t.is(res.body.error_code, code, what);
}

/** GET a business partner straight from bpm-svc over gRPC, bypassing the gateway. */
async function grpcGetPartner(token: string, id: number): Promise<ServiceError | undefined> {
  const client = new BusinessPartnerServiceClient(platform.grpc.bpm, credentials.createInsecure());
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  try {
    return await new Promise((resolve) => client.getBusinessPartner({ id }, metadata, (error) => resolve(error ?? undefined)));
  } finally {
    client.close();
  }
}

test('a demoted super user loses every super-user power with the token it holds: other tenants, all-tenant counts, promoting itself', async (t) => {
  const home = await createAccount();
  const elsewhere = await createPartner(freshTenant());
  // a super user who also holds user-info and business-partner roles in its home tenant
  const { user, password } = await createUser([home.accountNo], { superUser: true, crProcessId: home.crProcessId }, { crProcessId: home.crProcessId });
  await createGroupWithRoles(home.crProcessId, ['business-partner:read', 'user-info:read', 'user-info:write'], [user.userCode]);
  const { token } = await login(user.userCode, password);
  t.is((await api('GET', `/api/business-partner/${elsewhere.id}`, { token })).status, 200, 'the control: a super user reads any tenant');

  await adminUpdate('user-info', user.id, { superUser: false });

  expectError(t, await api('GET', `/api/business-partner/${elsewhere.id}`, { token }), 404, 'SVC-SYS-4001', "another tenant's record");
  const stats = await api('GET', '/api/business-partner/stats', { token });
  const own = await api('GET', `/api/business-partner/stats?crProcessId=${home.crProcessId}`, { token: await admin() });
  t.is(stats.status, 200, stats.text);
  t.deepEqual(stats.body, own.body, 'statistics count the home tenant only');
  expectError(
    t,
    await api('POST', '/api/business-partner/list', { token, body: { page: 0, size: 1, filter: { crProcessId: elsewhere.crProcessId } } }),
    403,
    'SVC-SYS-1003',
    'a list naming another tenant',
  );
  const me = await api('GET', `/api/user-info/${user.id}`, { token });
  expectError(
    t,
    await api('PUT', `/api/user-info/${user.id}`, { token, body: { version: me.body.version, superUser: true } }),
    403,
    'SVC-SYS-1003',
    'promoting itself',
  );
  t.is((await api('GET', `/api/user-info/${user.id}`, { token: await admin() })).body.superUser, false);
  t.is((await api('GET', '/api/auth/me', { token })).body.superUser, false);
  // the service itself, called without the gateway
  const error = await grpcGetPartner(token, elsewhere.id);
  t.is(error?.code, status.NOT_FOUND);
});

test('a promoted user is a super user from its very next request, with the token it holds', async (t) => {
  const home = await createAccount();
  const elsewhere = await createPartner(freshTenant());
  const { user, password } = await createUser([home.accountNo]);
  const { token } = await login(user.userCode, password);
  expectError(t, await api('GET', `/api/business-partner/${elsewhere.id}`, { token }), 403, 'SVC-SYS-1003', 'before: no role');
  await adminUpdate('user-info', user.id, { superUser: true });
  t.is((await api('GET', `/api/business-partner/${elsewhere.id}`, { token })).status, 200);
  t.is((await api('GET', '/api/auth/me', { token })).body.superUser, true);
});

test('a user whose select for its current tenant is removed reads that tenant no more (403 SVC-SYS-1003), and may switch to a tenant it holds', async (t) => {
  const [a, b] = await Promise.all([createAccount(), createAccount()]);
  const partner = await createPartner(a.crProcessId);
  const { user, process, password } = await createUser([a.accountNo, b.accountNo], {}, { crProcessId: a.crProcessId });
  await createGroupWithRoles(a.crProcessId, ['business-partner:read'], [user.userCode]);
  const { token } = await login(user.userCode, password);
  t.is(claimsOf(token).crProcessId, a.crProcessId);
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token })).status, 200, 'the control');

  await adminUpdate('user-process', process.id, { userProcessSelects: [{ accountNo: b.accountNo }] });

  expectError(t, await api('GET', `/api/business-partner/${partner.id}`, { token }), 403, 'SVC-SYS-1003', 'get');
  expectError(
    t,
    await api('POST', '/api/business-partner/list', { token, body: { page: 0, size: 5, filter: { crProcessId: a.crProcessId } } }),
    403,
    'SVC-SYS-1003',
    'list',
  );
  expectError(t, await api('GET', '/api/business-partner/stats', { token }), 403, 'SVC-SYS-1003', 'stats');
  t.is((await grpcGetPartner(token, partner.id))?.code, status.PERMISSION_DENIED, 'the service itself');
  expectError(t, await api('POST', '/api/auth/switch-account', { token, body: { accountNo: a.accountNo } }), 403, 'SVC-SYS-1003', 'switching back');
  t.is((await api('POST', '/api/auth/switch-account', { token, body: { accountNo: b.accountNo } })).status, 200);
});

test("a token signed with the secret that names a tenant outside the user's selects is not honoured (403 SVC-SYS-1003), roles there notwithstanding", async (t) => {
  const [a, c] = await Promise.all([createAccount(), createAccount()]);
  const partner = await createPartner(c.crProcessId);
  // the user is a member of a group of C granting business-partner roles, then loses its select for C
  const { user, process, password } = await createUser([a.accountNo, c.accountNo], {}, { crProcessId: a.crProcessId });
  await createGroupWithRoles(c.crProcessId, ['business-partner:read', 'business-partner:write'], [user.userCode]);
  await adminUpdate('user-process', process.id, { userProcessSelects: [{ accountNo: a.accountNo }] });
  const { token } = await login(user.userCode, password);
  const forged = signWithPlatformSecret({ ...claimsOf(token), accountNo: c.accountNo, crProcessId: c.crProcessId });
  expectError(t, await api('GET', `/api/business-partner/${partner.id}`, { token: forged }), 403, 'SVC-SYS-1003', 'get');
  expectError(
    t,
    await api('POST', '/api/business-partner/list', { token: forged, body: { page: 0, size: 5, filter: { crProcessId: c.crProcessId } } }),
    403,
    'SVC-SYS-1003',
    'list',
  );
  expectError(
    t,
    await api('POST', '/api/business-partner', {
      token: forged,
      body: { crProcessId: c.crProcessId, partnerCode: unique('X-'), partnerName: 'X', partnerType: 'CUSTOMER' },
    }),
    403,
    'SVC-SYS-1003',
    'create',
  );
  t.is((await grpcGetPartner(forged, partner.id))?.code, status.PERMISSION_DENIED, 'the service itself');
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token: await admin() })).body.partnerName, partner.partnerName, 'nothing changed');
});

test('an account, a user-process or a user made passive ends access from the next request; made active again, it returns', async (t) => {
  const account = await createAccount();
  const partner = await createPartner(account.crProcessId);
  const member = await userWithRoles(account, ['business-partner:read']);
  const read = () => api('GET', `/api/business-partner/${partner.id}`, { token: member.token });
  t.is((await read()).status, 200, 'the control');

  await adminUpdate('account', account.accountNo, { status: false });
  expectError(t, await read(), 403, 'SVC-SYS-1003', 'account passive');
  const loginBody = { userCode: member.userCode, password: member.password, languageCode: 'en' };
  expectError(t, await api('POST', '/api/auth/login', { apiKey: true, body: loginBody }), 401, 'SVC-SYS-1002', 'login holding no tenant');
  await adminUpdate('account', account.accountNo, { status: true });
  t.is((await read()).status, 200, 'account active again');

  const processes = await api('POST', '/api/user-process/list', {
    token: await admin(),
    body: { page: 0, size: 1, filter: { crProcessId: account.crProcessId, userCode: member.userCode } },
  });
  const processId = processes.body.content[0].id;
  await adminUpdate('user-process', processId, { status: false });
  expectError(t, await read(), 403, 'SVC-SYS-1003', 'user-process passive');
  await adminUpdate('user-process', processId, { status: true });
  t.is((await read()).status, 200, 'user-process active again');

  const users = await api('POST', '/api/user-info/list', {
    token: await admin(),
    body: { page: 0, size: 1, filter: { crProcessId: account.crProcessId, userCode: member.userCode } },
  });
  await adminUpdate('user-info', users.body.content[0].id, { status: false });
  expectError(t, await read(), 401, 'SVC-SYS-1001', 'user passive');
});

test('a group, a membership, a group-role or a role-type made passive takes its roles away from the next request', async (t) => {
  const account = await createAccount();
  const partner = await createPartner(account.crProcessId);
  const member = await userWithRoles(account, ['business-partner:read']);
  const read = () => api('GET', `/api/business-partner/${partner.id}`, { token: member.token });
  const token = await admin();
  const filter = { crProcessId: account.crProcessId, groupId: member.group.id };
  const [memberships, groupRoles] = await Promise.all([
    api('POST', '/api/group-member/list', { token, body: { page: 0, size: 5, filter } }),
    api('POST', '/api/group-role/list', { token, body: { page: 0, size: 5, filter } }),
  ]);
  const roleType = await roleTypeOf(account.crProcessId, 'business-partner:read');
  const links: [string, number][] = [
    ['group', member.group.id],
    ['group-member', memberships.body.content[0].id],
    ['group-role', groupRoles.body.content[0].id],
    ['role-type', roleType.id],
  ];
  t.is((await read()).status, 200, 'the control');
  for (const [path, id] of links) {
    await adminUpdate(path, id, { status: false });
    expectError(t, await read(), 403, 'SVC-SYS-1003', `${path} passive`);
    await adminUpdate(path, id, { status: true });
    t.is((await read()).status, 200, `${path} active again`);
  }
});

test('a user holding many roles through two groups is judged on the role each call needs, and loses only what the passive group alone granted', async (t) => {
  // docs/interface.md#identity: "A user holds the roles of the groups it is a member of in the current tenant."
  // The service reads, of those, the one the call needs (docs/adr/0056-live-access-reads-only-the-roles.md).
  const account = await createAccount();
  const partner = await createPartner(account.crProcessId);
  const branch = await createBranch(account.crProcessId, partner.id);
  const reads = registry.map((resource) => `${resource.path}:read`).filter((role) => role !== 'business-partner:read');
  const user = await userWithRoles(account, [...reads, 'business-partner:write']);
  const second = await createGroupWithRoles(account.crProcessId, ['business-partner:read', 'branch:read'], [user.userCode]);
  const getPartner = () => api('GET', `/api/business-partner/${partner.id}`, { token: user.token });
  const getBranch = () => api('GET', `/api/branch/${branch.id}`, { token: user.token });
  t.true(reads.length >= 20, `${reads.length} read roles`);
  t.is((await getPartner()).status, 200, 'business-partner:read, from the second group');
  t.is((await getBranch()).status, 200, 'branch:read, from both groups');
  expectError(
    t,
    await api('DELETE', `/api/business-partner/${partner.id}`, { token: user.token }),
    403,
    'SVC-SYS-1003',
    'business-partner:delete, held by neither',
  );
  await adminUpdate('group', second.id, { status: false });
  expectError(t, await getPartner(), 403, 'SVC-SYS-1003', 'the second group passive');
  t.is((await getBranch()).status, 200, 'branch:read, still from the first group');
});

test('a membership removed takes its roles away from the next request', async (t) => {
  const account = await createAccount();
  const partner = await createPartner(account.crProcessId);
  const member = await userWithRoles(account, ['business-partner:read']);
  const token = await admin();
  const memberships = await api('POST', '/api/group-member/list', {
    token,
    body: { page: 0, size: 5, filter: { crProcessId: account.crProcessId, groupId: member.group.id } },
  });
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token: member.token })).status, 200, 'the control');
  t.is((await api('DELETE', `/api/group-member/${memberships.body.content[0].id}`, { token })).status, 204);
  expectError(t, await api('GET', `/api/business-partner/${partner.id}`, { token: member.token }), 403, 'SVC-SYS-1003', 'after');
  // and a new membership grants them again, at once
  await create('group-member', { crProcessId: account.crProcessId, groupId: member.group.id, userCode: member.userCode });
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token: member.token })).status, 200);
});

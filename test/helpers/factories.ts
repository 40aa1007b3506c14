import { randomBytes, randomInt } from 'node:crypto';
import { sessionCookieOf } from '@platform/kit/auth/request-token.ts';
import { api, platform } from './platform.ts';

/** A short unique suffix for codes and names. */
export function unique(prefix = ''): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

/** A tenant id no other test uses (records need no account to carry a crProcessId). */
export function freshTenant(): number {
  return randomInt(1_000_000, 2 ** 40);
}

export interface Session {
  token: string;
  cookie: string;
  body: any;
}

export async function login(userCode: string, password: string, languageCode: 'en' | 'tr' = 'en'): Promise<Session> {
  const res = await api('POST', '/api/auth/login', { apiKey: true, body: { userCode, password, languageCode } });
  if (res.status !== 200) throw new Error(`login ${userCode}: ${res.status} ${res.text}`);
  return sessionOf(res);
}

/** The session a login or switch-account answer sets: its SVC_SESSION cookie and the token in it ('' when none). */
export function sessionOf(res: { headers: Headers; body?: unknown }): Session {
  const session = sessionCookieOf(res.headers.getSetCookie());
  return { token: session?.token ?? '', cookie: session?.line ?? '', body: res.body };
}

let admin: Promise<Session> | undefined;

/** The bootstrap super user's session, shared by the tests of one file. */
export function adminSession(): Promise<Session> {
  admin ??= login(platform.adminUser, platform.adminPassword);
  return admin;
}

/** POST /api/{path} as the admin, failing loudly on anything but 200. */
export async function create(path: string, body: Record<string, unknown>, token?: string): Promise<any> {
  const res = await api('POST', `/api/${path}`, { token: token ?? (await adminSession()).token, body });
  if (res.status !== 200) throw new Error(`create ${path}: ${res.status} ${res.text}`);
  return res.body;
}

export async function createPartner(crProcessId: number, overrides: Record<string, unknown> = {}): Promise<any> {
  return create('business-partner', {
    crProcessId,
    partnerCode: unique('P-'),
    partnerName: unique('Partner '),
    partnerType: 'CUSTOMER',
    ...overrides,
  });
}

export async function createBranch(crProcessId: number, businessPartnerId: number, overrides: Record<string, unknown> = {}): Promise<any> {
  return create('branch', {
    crProcessId,
    businessPartnerId,
    branchName: unique('Branch '),
    branchCode: unique('B-'),
    ...overrides,
  });
}

export async function createProduct(crProcessId: number, overrides: Record<string, unknown> = {}): Promise<any> {
  return create('product', {
    crProcessId,
    productCode: unique('PR-'),
    productName: unique('Product '),
    unitPrice: '10.00',
    currencyCode: 'EUR',
    ...overrides,
  });
}

/** A contract of a new partner of the tenant, unless the overrides name one. */
export async function createContract(crProcessId: number, overrides: Record<string, unknown> = {}): Promise<any> {
  return create('contract', {
    crProcessId,
    contractNo: unique('C-'),
    businessPartnerId: overrides.businessPartnerId ?? (await createPartner(crProcessId)).id,
    startDate: '2026-01-01',
    currencyCode: 'EUR',
    billingPeriod: 'MONTHLY',
    ...overrides,
  });
}

/** A line of a contract, with a new product of the tenant unless the overrides name one. */
export async function createContractItem(crProcessId: number, contractId: number, overrides: Record<string, unknown> = {}): Promise<any> {
  return create('contract-item', {
    crProcessId,
    contractId,
    productId: overrides.productId ?? (await createProduct(crProcessId)).id,
    quantity: '1',
    unitPrice: '10.00',
    ...overrides,
  });
}

/** A PENDING accrual of a contract (a new one of the tenant unless the overrides name one). */
export async function createAccrual(crProcessId: number, overrides: Record<string, unknown> = {}): Promise<any> {
  return create('accrual', {
    crProcessId,
    contractId: overrides.contractId ?? (await createContract(crProcessId)).id,
    periodStart: '2026-01-01',
    periodEnd: '2026-01-31',
    amount: '100.00',
    currencyCode: 'EUR',
    ...overrides,
  });
}

/** An account (tenant) with its own crProcessId. */
export async function createAccount(overrides: Record<string, unknown> = {}): Promise<any> {
  return create('account', { accountNo: unique('ACC-'), accountName: unique('Account '), crProcessId: freshTenant(), ...overrides });
}

/** A user with a user-process linking it to the given accounts; returns its password too. */
export async function createUser(
  accountNos: string[],
  overrides: Record<string, unknown> = {},
  processOverrides: Record<string, unknown> = {},
): Promise<{ user: any; process: any; password: string }> {
  const password = unique('pw-');
  const user = await create('user-info', { crProcessId: 1, userCode: unique('user-'), userDescription: 'Test user', password, ...overrides });
  const process = await create('user-process', {
    crProcessId: 1,
    userCode: user.userCode,
    userProcessSelects: accountNos.map((accountNo) => ({ accountNo })),
    ...processOverrides,
  });
  return { user, process, password };
}

/** The account of a tenant (its crProcessId), or undefined when the tenant has none. */
export async function accountOf(crProcessId: number): Promise<any> {
  const res = await api('POST', '/api/account/list', { token: (await adminSession()).token, body: { page: 0, size: 1, filter: { crProcessId } } });
  if (res.status !== 200) throw new Error(`list accounts: ${res.status} ${res.text}`);
  return res.body.content[0];
}

const tenantAccounts = new Map<number, Promise<any>>();

/** The account of a tenant, created (once per test file) when the tenant has none. */
export function accountFor(crProcessId: number): Promise<any> {
  let account = tenantAccounts.get(crProcessId);
  if (!account) {
    account = accountOf(crProcessId).then((own) => own ?? createAccount({ crProcessId }));
    tenantAccounts.set(crProcessId, account);
  }
  return account;
}

const roleTypes = new Map<string, Promise<any>>();

/** The role-type of `roleCode` in a tenant, created once per test file (roleCode is unique per tenant). */
export function roleTypeOf(crProcessId: number, roleCode: string): Promise<any> {
  const key = `${crProcessId}/${roleCode}`;
  let roleType = roleTypes.get(key);
  if (!roleType) {
    roleType = create('role-type', { crProcessId, roleCode, roleName: `Role ${roleCode}` });
    roleTypes.set(key, roleType);
  }
  return roleType;
}

/** An active group of a tenant granting `roleCodes` (docs/interface.md#identity) to `memberCodes`. */
export async function createGroupWithRoles(crProcessId: number, roleCodes: readonly string[], memberCodes: readonly string[] = []): Promise<any> {
  const group = await create('group', { crProcessId, groupName: unique('Group '), description: roleCodes.join(' ').slice(0, 255) });
  await Promise.all([
    ...roleCodes.map(async (roleCode) => create('group-role', { crProcessId, groupId: group.id, roleTypeId: (await roleTypeOf(crProcessId, roleCode)).id })),
    ...memberCodes.map((userCode) => create('group-member', { crProcessId, groupId: group.id, userCode })),
  ]);
  return group;
}

export interface TenantUser extends Session {
  userCode: string;
  password: string;
  /** The group that grants the user its roles. */
  group: any;
}

/**
 * A user who is not a super user, working in `account` and holding `roleCodes` there, built the way
 * a client would: user-info and user-process with its select (both of that tenant), role-types,
 * a group with its group-roles and the user as member; then logged in.
 */
export async function userWithRoles(account: { accountNo: string; crProcessId: number }, roleCodes: readonly string[]): Promise<TenantUser> {
  const tenant = { crProcessId: account.crProcessId };
  const { user, password } = await createUser([account.accountNo], tenant, tenant);
  const group = await createGroupWithRoles(account.crProcessId, roleCodes, [user.userCode]);
  const session = await login(user.userCode, password);
  return { ...session, userCode: user.userCode, password, group };
}

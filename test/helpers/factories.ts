import { randomBytes, randomInt } from 'node:crypto';
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
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('SVC_SESSION=')) ?? '';
  const token = /^SVC_SESSION=([^;]*)/.exec(cookie)?.[1] ?? '';
  return { token, cookie, body: res.body };
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

import type { Page } from 'playwright-core';
import { consoleUrl } from './console.ts';
import { createAccount, createGroupWithRoles, createUser, login, userWithRoles, type Session, type TenantUser } from './factories.ts';
import { api } from './platform.ts';

/** What a tenant administrator holds to give access: users, memberships, groups and their roles. */
export const ADMIN_ROLES = [
  'user-info:read',
  ...['user-process', 'group-member', 'group-role'].flatMap((path) => [`${path}:read`, `${path}:write`, `${path}:delete`]),
  'group:read',
  'role-type:read',
  'role-type:write',
];

/** Who may look at access but change nothing. */
export const VIEWER_ROLES = ['user-info:read', 'user-process:read', 'group:read', 'group-member:read', 'group-role:read', 'role-type:read'];

export interface AccessWorld {
  tenant: { accountNo: string; crProcessId: number };
  /** A tenant administrator (not a super user) holding ADMIN_ROLES. */
  admin: TenantUser;
  /** A user of the tenant in no group, logged in through the API: its token shows its live access. */
  clerk: { user: { id: number; userCode: string }; session: Session };
  /** A group granting business-partner:read, and one granting nothing yet. */
  partners: { id: number; groupName: string };
  contracts: { id: number; groupName: string };
}

/** A fresh tenant with its administrator, a clerk in no group, and two groups. */
export async function accessWorld(): Promise<AccessWorld> {
  const tenant = await createAccount();
  const admin = await userWithRoles(tenant, ADMIN_ROLES);
  const made = await createUser([tenant.accountNo], { crProcessId: tenant.crProcessId, userDescription: 'Clerk Ada' }, { crProcessId: tenant.crProcessId });
  const clerk = { user: made.user, session: await login(made.user.userCode, made.password) };
  const partners = await createGroupWithRoles(tenant.crProcessId, ['business-partner:read']);
  const contracts = await createGroupWithRoles(tenant.crProcessId, []);
  return { tenant, admin, clerk, partners, contracts };
}

/** The clerk's answer to a list of `path` in its tenant, with the token it had all along. */
export async function clerkList(world: AccessWorld, path: string): Promise<number> {
  const body = { page: 0, size: 1, filter: { crProcessId: world.tenant.crProcessId } };
  return (await api('POST', `/api/${path}/list`, { token: world.clerk.session.token, body })).status;
}

/** The clerk's page, its Access section shown with the tenant's groups. */
export async function openUser(on: Page, world: AccessWorld): Promise<void> {
  await on.goto(consoleUrl(`/user-info/${world.clerk.user.id}`));
  await on.getByRole('heading', { level: 2, name: 'Access' }).waitFor();
  await on.getByRole('checkbox', { name: world.partners.groupName }).waitFor();
}

/** A group's page, its role grid shown. */
export async function openGroup(on: Page, group: { id: number; groupName: string }): Promise<void> {
  await on.goto(consoleUrl(`/group/${group.id}`));
  await on.getByRole('heading', { level: 2, name: 'Roles of this group' }).waitFor();
  await on.getByRole('checkbox', { name: 'Business partners — read' }).waitFor();
}

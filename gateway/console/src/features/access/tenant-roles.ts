/**
 * What the groups of a tenant grant: its role-types (each tenant declares its own,
 * docs/adr/0016-tenants-are-held-through-selects.md) and its group-roles, read once for a section.
 */
import type { Row } from '../../shell/console-paths.ts';
import { listAll } from './access-api.ts';

export interface TenantRoles {
  /** roleCode → its role-type of the tenant. */
  types: Map<string, Row>;
  /** role-type id → roleCode. */
  codes: Map<number, string>;
  /** The tenant's group-roles. */
  grants: Row[];
}

/** The role-types and group-roles of `crProcessId`, narrowed to one group when `groupId` is given. */
export async function loadTenantRoles(crProcessId: number, groupId: number | undefined, signal: AbortSignal): Promise<TenantRoles> {
  const [types, grants] = await Promise.all([
    listAll('role-type', { crProcessId }, signal),
    listAll('group-role', groupId === undefined ? { crProcessId } : { crProcessId, groupId }, signal),
  ]);
  return {
    types: new Map(types.map((type) => [String(type.roleCode), type])),
    codes: new Map(types.map((type) => [Number(type.id), String(type.roleCode)])),
    grants,
  };
}

/** The role codes group `groupId` grants, sorted. */
export function codesOf(roles: TenantRoles, groupId: number): string[] {
  return roles.grants
    .filter((grant) => Number(grant.groupId) === groupId)
    .map((grant) => roles.codes.get(Number(grant.roleTypeId)))
    .filter((code): code is string => code !== undefined)
    .sort();
}

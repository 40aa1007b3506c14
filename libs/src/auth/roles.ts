import type { RoleSource } from './caller.ts';

/**
 * The roles of a user in a tenant (decisions.md §2): the roleCodes of the role-types that
 * group-roles link to the active groups of that tenant the user is a member of. Groups, members
 * and roles are core's records; core's view `core.user_tenant_role (user_code, cr_process_id,
 * role_code)` joins them, and all three services ask it, in one query per call that checks a role.
 * It is the one place where bpm-svc and dms-svc read core's schema (docs/decisions.md).
 *
 * @example
 * const roles = await coreRoleSource(em, 'ayse', 1042); // Set { 'branch:read', 'branch:write' }
 */
export const coreRoleSource: RoleSource = async (em, userCode, crProcessId) => {
  const rows = await em.execute<{ role_code: string }[]>(
    'select role_code from core.user_tenant_role where user_code = ? and cr_process_id = ?',
    [userCode, crProcessId],
  );
  return new Set(rows.map((row) => row.role_code));
};

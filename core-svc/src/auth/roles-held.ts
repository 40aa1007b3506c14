import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared } from '@platform/service-kit/db/prepared.ts';

/**
 * Every role code a user holds in a tenant: the roles of `core.user_tenant_role`, the view every
 * service's live access reads its role checks from (libs/service-kit/src/auth/access.ts), so that what `me`
 * shows is what those checks find at the same moment. One named statement, one round trip.
 */
const ROLES_HELD = {
  name: 'core-me-roles',
  text: `select coalesce(array_agg(r.role_code), '{}') as roles
           from core.user_tenant_role r
          where r.user_code = $1 and r.cr_process_id = $2`,
};

/**
 * The role codes `userCode` holds in tenant `crProcessId` now, sorted (code-unit order, the same on
 * every database collation). Ask it only for a tenant the user may work in: the live access counts
 * a user's roles only there (a super user may work in any).
 *
 * @example
 * await rolesHeld(ctx.em, 'clerk', 1001) // ['branch:read', 'branch:write']
 */
export async function rolesHeld(em: EntityManager, userCode: string, crProcessId: number): Promise<string[]> {
  const [row] = await queryPrepared<{ roles: string[] }>(em, ROLES_HELD, [userCode, crProcessId]);
  return [...(row?.roles ?? [])].sort();
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared } from '../db/prepared.ts';
import type { VerifiedClaims } from './jwt.ts';

/**
 * What a user may do at this moment, read from the live state on every call, never from the token:
 * a token only says who the caller is and which tenant it works in (decisions.md §2). A demotion,
 * a select removed, an account, group or membership made passive count from the very next call.
 */
export interface LiveAccess {
  /** The user's superUser flag as stored now (the token's claim is not trusted). */
  superUser: boolean;
  /** The token's tenant is one the user holds now (`core.user_tenant`). */
  tenantHeld: boolean;
  /** The user's roles in the token's tenant (`core.user_tenant_role`); empty unless the tenant is held. */
  roles: ReadonlySet<string>;
}

/** The live access of a verified token, or undefined when its user or session is no longer live. */
export type AccessSource = (em: EntityManager, claims: VerifiedClaims) => Promise<LiveAccess | undefined>;

/**
 * One named prepared statement: the user must be active with the token's tokenVersion, and the
 * token's session (sid) must be the same user's, open and unexpired; then its superUser flag, whether
 * it holds the token's tenant, and its roles there. It reads core's schema (user_info, session_log
 * and the two views), as the gateway's session check does (docs/decisions.md).
 */
const LIVE_ACCESS = {
  name: 'live-access',
  text: `select u.super_user,
                exists (select 1 from core.user_tenant t where t.user_code = u.user_code and t.cr_process_id = $4) as tenant_held,
                array(select r.role_code from core.user_tenant_role r where r.user_code = u.user_code and r.cr_process_id = $4) as roles
           from core.user_info u
           join core.session_log s on s.session_id = $2 and s.user_code = u.user_code
          where u.user_code = $1 and u.status and u.token_version = $3 and s.active and s.expires_at > now()`,
};

/**
 * The platform's access source: core's live tables, one round trip per call.
 *
 * @example
 * const access = await coreAccessSource(em, claims); // undefined → 401 SVC-SYS-1001
 * access.roles.has('branch:read')
 */
export const coreAccessSource: AccessSource = async (em, claims) => {
  const [row] = await queryPrepared<{ super_user: boolean; tenant_held: boolean; roles: string[] }>(em, LIVE_ACCESS, [
    claims.userCode,
    claims.sid,
    claims.tokenVersion,
    claims.crProcessId,
  ]);
  if (!row) return undefined;
  return { superUser: row.super_user, tenantHeld: row.tenant_held, roles: new Set(row.tenant_held ? row.roles : []) };
};

import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared, type PreparedStatement } from '../db/prepared.ts';
import type { VerifiedClaims } from './jwt.ts';

/**
 * What a user may do at this moment, read from the live state on every call, never from the token:
 * a token only says who the caller is and which tenant it works in (docs/interface.md#identity). A demotion,
 * a select removed, an account, group or membership made passive count from the very next call.
 */
export interface LiveAccess {
  /** The user's superUser flag as stored now (the token's claim is not trusted). */
  superUser: boolean;
  /** The user may work in the token's tenant now: a super user in any, another user in one it holds (`core.user_tenant`). */
  tenantHeld: boolean;
  /**
   * Of the roles asked for, those the user holds in the token's tenant now (`core.user_tenant_role`);
   * empty unless the tenant is held. Not read for a super user, whom every role check passes.
   */
  roles: ReadonlySet<string>;
  /** The roles this access was read for (the call's handler names them: grpc/requiring.ts); checking another is a defect. */
  asked: ReadonlySet<string>;
}

/**
 * A one-row read to run in the same statement as the live access, so that a call needing both
 * (a get by key) makes one round trip. Its `text` is a `select` that may use `$4` (the token's
 * tenant), `access.super_user`, and its own parameters from `$6` on; it reads what the caller would
 * be allowed to see if its roles allow the read at all: the caller's checks still run, in order.
 */
export interface ReadAlong {
  /** The combined statement's name (unique per `text`). */
  name: string;
  text: string;
  /** The values of `$6`, `$7`, … */
  values: unknown[];
}

/** The live access of a verified token, and the row read along with it (null when none matched). */
export interface AccessRead {
  access: LiveAccess;
  /** Present when a read was asked along: the raw row (the access's columns beside the read's, the
   * read's null when no row matched). */
  along?: Record<string, unknown>;
}

/** What a call asks of the live access: the roles its checks consult, and a row to read along. */
export interface AccessAsked {
  roles: ReadonlySet<string>;
  along?: ReadAlong;
}

/** The live access of a verified token, or undefined when its user or session is no longer live. */
export type AccessSource = (em: EntityManager, claims: VerifiedClaims, asked: AccessAsked) => Promise<AccessRead | undefined>;

/**
 * The user must be active with the token's tokenVersion, and the token's session (sid) must be the
 * same user's, open and unexpired; then its superUser flag, and for a user who is not a super user
 * whether it holds the token's tenant and which of the asked roles (`$5`) it holds there. It reads
 * core's schema (user_info, session_log and the two views), as the gateway's session check does
 * (docs/decisions.md). A super user's tenant and roles are not read (CASE evaluates the branch it
 * takes alone), and a user's roles only as far as asked: the role view's rows of one role code,
 * not every role the user holds, which for a clerk with a tenant's ninety roles halved what
 * PostgreSQL could serve (docs/decisions.md "Live access: the roles a call needs").
 */
const LIVE_ACCESS_SELECT = `select u.super_user,
                case when u.super_user then true
                     else exists (select 1 from core.user_tenant t where t.user_code = u.user_code and t.cr_process_id = $4) end as tenant_held,
                case when u.super_user then '{}'::text[]
                     else array(select r.role_code from core.user_tenant_role r
                                 where r.user_code = u.user_code and r.cr_process_id = $4 and r.role_code = any($5::text[])) end as roles
           from core.user_info u
           join core.session_log s on s.session_id = $2 and s.user_code = u.user_code
          where u.user_code = $1 and u.status and u.token_version = $3 and s.active and s.expires_at > now()`;

const LIVE_ACCESS: PreparedStatement = { name: 'live-access', text: LIVE_ACCESS_SELECT };

/** The access's columns under names no table's column has, beside the row read along. */
const ACCESS_COLUMNS = `access.super_user as "access.super_user", access.tenant_held as "access.tenant_held", access.roles as "access.roles"`;

/** The live access and a read along with it, as one named statement (one per read). */
const combined = new Map<string, PreparedStatement>();

/**
 * The statement coreAccessSource sends for a call that reads `along`: its values are accessValues',
 * then the read's own.
 * Exported for bench/branch-get.ts's checked-hop reference, which sends the same text.
 */
export function withAccess(along: Pick<ReadAlong, 'name' | 'text'>): PreparedStatement {
  let statement = combined.get(along.name);
  if (!statement) {
    statement = {
      name: `live-access+${along.name}`,
      text: `with access as (${LIVE_ACCESS_SELECT})
             select ${ACCESS_COLUMNS}, along.* from access left join lateral (${along.text}) along on true`,
    };
    combined.set(along.name, statement);
  }
  return statement;
}

/** The access's columns of a row of `withAccess`'s statement. */
export interface AccessRow {
  'access.super_user': boolean;
  'access.tenant_held': boolean;
  'access.roles': string[];
}

/** The live access a row of `withAccess`'s statement read, for the roles `asked`. */
export function accessOfRow(row: AccessRow, asked: ReadonlySet<string>): LiveAccess {
  return liveAccess(row['access.super_user'], row['access.tenant_held'], row['access.roles'], asked);
}

/**
 * The platform's access source: core's live tables, one named prepared statement per call, which
 * also reads the row a get asks along (`along`: its columns null when none matched).
 *
 * @example
 * const read = await coreAccessSource(em, claims, { roles: new Set(['branch:read']) }); // undefined → 401 SVC-SYS-1001
 * read.access.roles.has('branch:read')
 */
export const coreAccessSource: AccessSource = async (em, claims, { roles, along }) => {
  const values = accessValues(claims, roles);
  if (!along) {
    const [row] = await queryPrepared<{ super_user: boolean; tenant_held: boolean; roles: string[] }>(em, LIVE_ACCESS, values);
    return row && { access: liveAccess(row.super_user, row.tenant_held, row.roles, roles) };
  }
  const [row] = await queryPrepared<AccessRow & Record<string, unknown>>(em, withAccess(along), [...values, ...along.values]);
  if (!row) return undefined;
  return { access: accessOfRow(row, roles), along: row };
};

/** The live access's own values, `$1` to `$5` of its statements. */
export function accessValues(claims: Pick<VerifiedClaims, 'userCode' | 'sid' | 'tokenVersion' | 'crProcessId'>, roles: ReadonlySet<string>): unknown[] {
  return [claims.userCode, claims.sid, claims.tokenVersion, claims.crProcessId, [...roles]];
}

function liveAccess(superUser: boolean, tenantHeld: boolean, held: string[], asked: ReadonlySet<string>): LiveAccess {
  return { superUser, tenantHeld, roles: new Set(tenantHeld ? held : []), asked };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared, type PreparedStatement } from '../db/prepared.ts';
import type { Scope } from '../db/tenant-scope.ts';
import { AccessCache, type AccessKey } from './access-cache.ts';
import type { VerifiedClaims } from '@platform/kit/auth/jwt.ts';

/**
 * What a user may do at this moment, read from the live state on every call, never from the token:
 * a token only says who the caller is and which tenant it works in (docs/interface.md#identity). A demotion,
 * a select removed, an account, group or membership made passive count from the very next call
 * (a kept access serves only while the access stamp says nothing it reads has changed).
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
 * (a get by key) makes one round trip. Its `text` is a `select` that may use `access.super_user`
 * (the caller is a live super user), `access.cr_process_id` (the token's tenant) and its own
 * parameters `$1` to `$n`, n being the number of its `values` (the same for every read of one
 * `name`); it reads what the caller would be allowed to see if its roles allow the read at all: the
 * caller's checks still run, in order.
 */
export interface ReadAlong {
  /** The combined statement's name (unique per `text`). */
  name: string;
  text: string;
  /** The values of `$1`, `$2`, … */
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

/** The rows a named statement returns, as the pg driver parses them: queryPrepared, or a bare pg pool's query. */
export type QueryRows = (statement: PreparedStatement, values: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * The live access in full. The user must be active with the token's tokenVersion, and the token's
 * session (sid) must be the same user's, open and unexpired; then its superUser flag, and for a
 * user who is not a super user whether it holds the token's tenant and which of the asked roles it
 * holds there; the session's expiry and the access stamp, read in the same snapshot (a cached
 * access is used again while the stamp is the same:
 * docs/adr/0062-a-kept-live-access-and-its-access.md). It reads core's schema (user_info, session_log, the two views and
 * access_stamp). A super user's tenant and roles are not read (CASE evaluates the branch it takes
 * alone), and a user's roles only as far as asked: the role view's rows of one role code, not every
 * role the user holds, which for a clerk with a tenant's ninety roles halved what PostgreSQL could
 * serve (docs/adr/0056-live-access-reads-only-the-roles.md). A personal access token's session
 * carries a `scope` (its roles): the user's held roles are intersected with it, and its user's
 * superUser flag gives it nothing (docs/adr/0135-a-token-s-roles-stay-within-its-user-s.md).
 *
 * Its parameters are accessValues', numbered from `first`: user code, sid, tokenVersion, tenant,
 * roles asked.
 */
function liveAccessSelect(first: number): string {
  const [user, sid, version, tenant, roles] = [0, 1, 2, 3, 4].map((i) => `$${first + i}`);
  return `select u.super_user and s.scope is null as super_user,
                case when u.super_user and s.scope is null then true
                     else exists (select 1 from core.user_tenant t where t.user_code = u.user_code and t.cr_process_id = ${tenant}) end as tenant_held,
                case when u.super_user and s.scope is null then '{}'::text[]
                     else array(select r.role_code from core.user_tenant_role r
                                 where r.user_code = u.user_code and r.cr_process_id = ${tenant} and r.role_code = any(${roles}::text[])
                                   and (s.scope is null or r.role_code = any(s.scope))) end as roles,
                ${tenant}::bigint as cr_process_id,
                (extract(epoch from s.expires_at) * 1000)::float8 as expires_at,
                (select sum(a.stamp) from core.access_stamp a) as stamp
           from core.user_info u
           join core.session_log s on s.session_id = ${sid} and s.user_code = u.user_code
          where u.user_code = ${user} and u.status and u.token_version = ${version} and s.active and s.expires_at > now()`;
}

/**
 * The check of a cached access: the stamp alone, the sum of core.access_stamp's rows (one page), and
 * the cached superUser flag and the token's tenant as the access's columns for a read along
 * (`$first`, `$first + 1`).
 */
function stampSelect(first: number): string {
  return `select sum(a.stamp) as stamp, $${first}::boolean as super_user, $${first + 1}::bigint as cr_process_id from core.access_stamp a`;
}

/** The access's columns under names no table's column has, beside the row read along. */
const ACCESS_COLUMNS =
  'access.super_user as "access.super_user", access.tenant_held as "access.tenant_held", access.roles as "access.roles", ' +
  'access.expires_at as "access.expires_at", access.stamp as "access.stamp"';

/** The live access in full, with no read along. */
const LIVE_ACCESS: PreparedStatement = { name: 'live-access', text: `with access as (${liveAccessSelect(1)}) select ${ACCESS_COLUMNS} from access` };

/**
 * The hot path's statement with no read along: the stamp alone. Exported for the cost's test
 * (test/live-access-cost.test.ts explains it).
 */
export const STAMP_CHECK: PreparedStatement = { name: 'live-access-stamp', text: 'select sum(a.stamp) as "access.stamp" from core.access_stamp a' };

/** The statements of a read along, by its name: in full and the stamp's check. */
const combined = new Map<string, { full: PreparedStatement; check: PreparedStatement }>();

/**
 * The two statements an access source sends for a call that reads `along`: `full`, the live access
 * in full with the row (its values are the read's, then accessValues'), and `check`, the stamp
 * with the row (the read's values, then the cached superUser flag and the token's tenant), sent on
 * the hot path while a cached access may serve.
 * Exported for bench/branch-get.ts's checked-hop reference and the cost's test, which send the same text.
 */
export function withAccess(along: Pick<ReadAlong, 'name' | 'text' | 'values'>): { full: PreparedStatement; check: PreparedStatement } {
  let statements = combined.get(along.name);
  if (!statements) {
    const first = along.values.length + 1;
    const join = `left join lateral (${along.text}) along on true`;
    statements = {
      full: { name: `live-access+${along.name}`, text: `with access as (${liveAccessSelect(first)}) select ${ACCESS_COLUMNS}, along.* from access ${join}` },
      check: {
        name: `live-access-stamp+${along.name}`,
        text: `with access as (${stampSelect(first)}) select access.stamp as "access.stamp", along.* from access ${join}`,
      },
    };
    combined.set(along.name, statements);
  }
  return statements;
}

/**
 * The platform's access source: core's live tables, one named prepared statement per call, which
 * also reads the row a get asks along (`along`: its columns null when none matched). A process keeps
 * what it read (accessReader), so that a call whose access is kept reads only the access stamp.
 *
 * @example
 * const read = await coreAccessSource(em, claims, { roles: new Set(['branch:read']) }); // undefined → 401 SVC-SYS-1001
 * read.access.roles.has('branch:read')
 */
export const coreAccessSource: AccessSource = (() => {
  const cache = new AccessCache();
  // read in the token's own scope (db/tenant-scope.ts claimsScope): its user's rows and its tenant's
  return (em, claims, asked) => readAccess((statement, values) => queryPrepared(em, statement, values, claimsScope(claims)), cache, claims, asked);
})();

/**
 * An access source over `query` with its own cache: the bench's checked hop reads the live access
 * as a service does, on a bare pg pool.
 */
export function accessReader(query: QueryRows, cache = new AccessCache()): (claims: AccessKey, asked: AccessAsked) => Promise<AccessRead | undefined> {
  return (claims, asked) => readAccess(query, cache, claims, asked);
}

/**
 * A kept access while the stamp a statement reads now is the one it was read with (the row read
 * along in that statement); else the live access in full, kept with the stamp it saw.
 */
async function readAccess(query: QueryRows, cache: AccessCache, claims: AccessKey, { roles, along }: AccessAsked): Promise<AccessRead | undefined> {
  const key = AccessCache.keyOf(claims, roles);
  const kept = cache.candidate(key, Date.now());
  const statements = along && withAccess(along);
  if (kept) {
    const [row] = statements ? await query(statements.check, [...along.values, kept.superUser, claims.crProcessId]) : await query(STAMP_CHECK, []);
    const stamp = Number(row?.['access.stamp']);
    cache.saw(stamp);
    if (stamp === kept.stamp) return { access: liveAccess(kept.superUser, kept.tenantHeld, kept.roles, roles), ...(along && { along: row }) };
  }
  const values = accessValues(claims, roles);
  const [row] = statements ? await query(statements.full, [...along.values, ...values]) : await query(LIVE_ACCESS, values);
  if (!row) {
    cache.drop(key);
    return undefined;
  }
  const read = row as unknown as AccessRow;
  cache.keep(key, {
    stamp: Number(read['access.stamp']),
    superUser: read['access.super_user'],
    tenantHeld: read['access.tenant_held'],
    roles: read['access.roles'],
    expiresAt: read['access.expires_at'],
    readAt: Date.now(),
  });
  return { access: accessOfRow(read, roles), ...(along && { along: row }) };
}

/** The access's columns of a row of `withAccess`'s full statement. */
export interface AccessRow {
  'access.super_user': boolean;
  'access.tenant_held': boolean;
  'access.roles': string[];
  'access.expires_at': number;
  'access.stamp': string;
}

/** The live access a row of `withAccess`'s full statement read, for the roles `asked`. */
export function accessOfRow(row: AccessRow, asked: ReadonlySet<string>): LiveAccess {
  return liveAccess(row['access.super_user'], row['access.tenant_held'], row['access.roles'], asked);
}

/** The live access's own values, `$1` to `$5` of its statement with no read along. */
export function accessValues(claims: Pick<VerifiedClaims, 'userCode' | 'sid' | 'tokenVersion' | 'crProcessId'>, roles: ReadonlySet<string>): unknown[] {
  return [claims.userCode, claims.sid, claims.tokenVersion, claims.crProcessId, [...roles]];
}

function liveAccess(superUser: boolean, tenantHeld: boolean, held: string[], asked: ReadonlySet<string>): LiveAccess {
  return { superUser, tenantHeld, roles: new Set(tenantHeld ? held : []), asked };
}

/**
 * The scope a token's own authentication reads in, before its live access is known: its user's
 * rows, and the token's tenant (every tenant for a token issued to a super user). What the read
 * finds is then checked against the live access (below), which is what a call may do.
 */
export function claimsScope(claims: { userCode: string; crProcessId: number; superUser: boolean }): Scope {
  return claims.superUser ? { platform: 'authentication' } : { tenants: [claims.crProcessId], user: claims.userCode };
}

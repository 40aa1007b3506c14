import type { EntityManager } from '@mikro-orm/postgresql';
import { accessTokenParts, secretMatches } from '@platform/kit/auth/access-token-form.ts';
import type { VerifiedClaims } from '@platform/kit/auth/jwt.ts';
import { queryPrepared, type PreparedStatement } from '../db/prepared.ts';
import type { Scope } from '../db/tenant-scope.ts';

/** A token's row is read and its use noted before its caller is known: the platform's path of authentication. */
const AUTHENTICATION: Scope = { platform: 'authentication' };

/** The claims a personal access token stands for: a user token's, and the token's public id. */
export interface AccessTokenClaims extends VerifiedClaims {
  accessTokenId: string;
  /** The token's roles, sorted: its scope (the live access intersects its user's roles with them). */
  scope: string[];
}

/** Resolved tokens kept at most; past it the oldest goes. */
const RESOLVED_LIMIT = 10_000;
/** A token's last use is written at most this often per process (ms). */
const LAST_USE_EVERY_MS = 60_000;

/**
 * A token's row, its owner's and its session's, while it is neither revoked nor expired: what the
 * claims are made of. Whether the token may still be used is decided by the live access every call
 * reads (its session open and unexpired, its user active with the token's tokenVersion), not here.
 */
const RESOLVE: PreparedStatement = {
  name: 'access-token-resolve',
  text: `select t.secret_hash, t.roles, t.user_code, t.session_id, t.cr_process_id::float8 as cr_process_id, t.account_no, t.token_version,
                extract(epoch from t.created_at)::float8 as created_at, extract(epoch from t.expires_at)::float8 as expires_at,
                u.user_description, s.user_process_id::float8 as user_process_id
           from core.access_token t
           join core.user_info u on u.user_code = t.user_code
           join core.session_log s on s.session_id = t.session_id
          where t.token_id = $1 and t.revoked_at is null and t.expires_at > now()`,
};

const NOTE_USE: PreparedStatement = {
  name: 'access-token-used',
  text: 'update core.access_token set last_used_at = now(), last_used_ip = $2 where token_id = $1',
};

interface ResolveRow {
  secret_hash: string;
  roles: string[];
  user_code: string;
  session_id: string;
  cr_process_id: number;
  account_no: string;
  token_version: number;
  created_at: number;
  expires_at: number;
  user_description: string;
  user_process_id: number;
}

const resolved = new Map<string, AccessTokenClaims>();
const lastNoted = new Map<string, number>();

/**
 * The claims of a personal access token (`svcpat_<id>_<secret>`): the token's row by its id, its
 * secret's hash compared in constant time, then kept in this process until the token expires, as
 * TokenService.verifyUser keeps a verified JWT's claims, so that a call whose access is kept reads
 * only the access stamp. Undefined for a malformed, unknown, revoked, expired or forged token (401).
 * The claims name the token's session (`sid`): the live access (auth/access.ts) refuses the call once
 * that session is ended (revoked) or past its expiry, or the user is passive, and intersects the
 * user's roles with the token's (docs/adr/0135-a-token-s-roles-stay-within-its-user-s.md). A token
 * presented with its right secret has its last use noted (`clientIp`), at most once a minute per
 * process (docs/adr/0137-an-access-token-s-last-use.md).
 *
 * @example
 * const claims = await accessTokenClaims(orm.em, 'svcpat_…', '203.0.113.9'); // undefined → 401 SVC-SYS-1001
 */
export async function accessTokenClaims(em: EntityManager, token: string, clientIp: string | undefined): Promise<AccessTokenClaims | undefined> {
  let claims = resolved.get(token);
  if (claims && claims.exp * 1000 <= Date.now()) {
    resolved.delete(token);
    claims = undefined;
  }
  if (!claims) {
    claims = await resolve(em, token);
    if (!claims) return undefined;
    if (resolved.size >= RESOLVED_LIMIT) {
      const oldest = resolved.keys().next();
      if (!oldest.done) resolved.delete(oldest.value);
    }
    resolved.set(token, claims);
  }
  noteUse(em, claims.accessTokenId, clientIp);
  return claims;
}

/** Whether claims are a personal access token's: its public id, else undefined (a login's JWT). */
export function accessTokenIdOf(claims: VerifiedClaims): string | undefined {
  return 'accessTokenId' in claims && typeof claims.accessTokenId === 'string' ? claims.accessTokenId : undefined;
}

/** A personal access token's roles (its scope); undefined for a login's JWT, which may use every role its user holds. */
export function accessTokenScopeOf(claims: VerifiedClaims): readonly string[] | undefined {
  return accessTokenIdOf(claims) ? (claims as AccessTokenClaims).scope : undefined;
}

async function resolve(em: EntityManager, token: string): Promise<AccessTokenClaims | undefined> {
  const parts = accessTokenParts(token);
  if (!parts) return undefined;
  const [row] = await queryPrepared<ResolveRow>(em, RESOLVE, [parts.tokenId], AUTHENTICATION);
  if (!row || !secretMatches(parts.secret, row.secret_hash)) return undefined;
  return {
    sub: row.user_code,
    userCode: row.user_code,
    userProcessId: Number(row.user_process_id),
    userDescription: row.user_description,
    // the live flag is read per call, and a token's session never carries it (access.ts)
    superUser: false,
    tokenVersion: row.token_version,
    accountNo: row.account_no,
    crProcessId: Number(row.cr_process_id),
    sid: row.session_id,
    lang: 'en',
    iat: Math.floor(row.created_at),
    exp: Math.floor(row.expires_at),
    accessTokenId: parts.tokenId,
    scope: [...row.roles].sort(),
  };
}

/**
 * Writes the token's last use when this process has not written it for a minute; a failed write is
 * let go (the next one carries it). A check without the client's address (the gateway's session
 * check before an answer of its own) notes nothing: the request it checks is noted where served.
 */
function noteUse(em: EntityManager, tokenId: string, clientIp: string | undefined): void {
  if (!clientIp) return;
  const now = Date.now();
  const last = lastNoted.get(tokenId);
  if (last !== undefined && now - last < LAST_USE_EVERY_MS) return;
  if (lastNoted.size >= RESOLVED_LIMIT) lastNoted.clear();
  lastNoted.set(tokenId, now);
  queryPrepared(em, NOTE_USE, [tokenId, clientIp.slice(0, 64)], AUTHENTICATION).catch(() => lastNoted.delete(tokenId));
}

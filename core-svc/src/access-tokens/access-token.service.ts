import { randomUUID } from 'node:crypto';
import { actorOf, allows, assertTenant, userOf, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import type { Handler } from '@platform/service-kit/grpc/server.ts';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { newAccessToken } from '@platform/kit/auth/access-token-form.ts';
import { forbidden, invalidField, notFound } from '@platform/kit/errors/domain-error.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import type {
  AccessToken,
  CreateAccessTokenRequest,
  CreateAccessTokenResponse,
  ListAccessTokensResponse,
  ListTenantAccessTokensRequest,
  RevokeAccessTokenRequest,
} from '@platform/kit/gen/platform/core/v1/access_token.ts';
import { userInfo } from '@platform/contracts/core/user-info.ts';
import { SessionEntity, UserInfoEntity, UserProcessEntity } from '../db.ts';
import { endSession } from '../sessions/session-ended.ts';
import { AccessTokenEntity } from '../access-token.entity.ts';
import { toAccessToken } from './access-token.view.ts';
import { loginUserOf } from './login-user.ts';

/** A token's longest life (docs/adr/0136-what-a-token-may-not-do-and-its-expiry.md): a year, leap day included. */
export const MAX_LIFETIME_MS = 366 * 24 * 60 * 60 * 1000;
/** A list's answer at most. */
const LIST_LIMIT = 1000;
/** A tenant's administrator, as far as tokens go: who manages its users (docs/adr/0005-users-who-are-not-super-users.md). */
const TENANT_ADMIN = roleOf(userInfo, 'write');
const ADMIN_ROLES: ReadonlySet<string> = new Set([TENANT_ADMIN]);
const TOKEN_ID = /^[0-9a-f]{32}$/;

/**
 * AccessTokenService.CreateAccessToken: a token of the caller for a tenant it holds, with roles it
 * holds there now, its session opened with the same expiry and the roles as its scope, in one
 * transaction. The token is in the answer this once.
 */
async function createAccessToken(request: CreateAccessTokenRequest, ctx: CallContext): Promise<CreateAccessTokenResponse> {
  const claims = loginUserOf(ctx);
  const name = (toRowValue('name', { kind: 'text', maxLength: 100 }, request.name) as string | null)?.trim() ?? '';
  if (name === '') throw invalidField('name', 'field.required');
  if (!request.expiresAt) throw invalidField('expiresAt', 'field.required');
  const expiresAt = toRowValue('expiresAt', { kind: 'datetime' }, request.expiresAt) as Date;
  const now = new Date();
  if (expiresAt.getTime() <= now.getTime() || expiresAt.getTime() > now.getTime() + MAX_LIFETIME_MS) throw invalidField('expiresAt', 'field.outOfRange');
  const crProcessId = toRowValue('crProcessId', { kind: 'long', min: 1 }, request.crProcessId) as number;
  const roles = [...new Set(request.roles)].sort();
  if (roles.length === 0) throw invalidField('roles', 'field.required');
  const em = ctx.em;
  // the tenant and the roles as held now: a token never carries a role its user lacks
  const [tenant] = await em.execute<{ account_no: string }[]>(
    'select account_no from core.user_tenant where user_code = ? and cr_process_id = ? order by account_no limit 1',
    [claims.userCode, crProcessId],
  );
  if (!tenant) throw forbidden();
  const held = new Set(
    (
      await em.execute<{ role_code: string }[]>('select role_code from core.user_tenant_role where user_code = ? and cr_process_id = ?', [
        claims.userCode,
        crProcessId,
      ])
    ).map((row) => row.role_code),
  );
  if (!roles.every((role) => held.has(role))) throw forbidden();
  const user = await em.findOne(UserInfoEntity, { userCode: claims.userCode });
  const process = await em.findOne(UserProcessEntity, { userCode: claims.userCode });
  if (!user || !process) throw forbidden();
  const made = newAccessToken();
  const sessionId = randomUUID();
  em.create(SessionEntity, {
    sessionId,
    userCode: claims.userCode,
    userProcessId: process.id,
    accountNo: tenant.account_no,
    crProcessId,
    ipAddress: ctx.client?.ipAddress?.slice(0, 64) ?? null,
    userAgent: `access token: ${name}`.slice(0, 1000),
    projectCode: ctx.projectCode?.slice(0, 100) ?? null,
    loginAt: now,
    lastSeenAt: now,
    expiresAt,
    active: true,
    scope: roles,
  } as Row);
  const row = em.create(AccessTokenEntity, {
    tokenId: made.tokenId,
    sessionId,
    secretHash: made.secretHash,
    name,
    userCode: claims.userCode,
    crProcessId,
    accountNo: tenant.account_no,
    roles,
    tokenVersion: user.tokenVersion,
    createdAt: now,
    expiresAt,
  } as Row);
  await em.flush();
  return { accessToken: toAccessToken(row), token: made.token };
}

/** AccessTokenService.ListAccessTokens: the caller's own tokens, newest first. */
async function listAccessTokens(_request: unknown, ctx: CallContext): Promise<ListAccessTokensResponse> {
  const claims = userOf(ctx);
  const rows = await ctx.em.find(AccessTokenEntity, { userCode: claims.userCode }, { orderBy: { createdAt: 'desc' }, limit: LIST_LIMIT });
  return { tokens: rows.map((row) => toAccessToken(row)) };
}

/** AccessTokenService.ListTenantAccessTokens: a tenant's tokens, for who manages its users (user-info:write there). */
async function listTenantAccessTokens(request: ListTenantAccessTokensRequest, ctx: CallContext): Promise<ListAccessTokensResponse> {
  const crProcessId = toRowValue('crProcessId', { kind: 'long', min: 1 }, request.crProcessId) as number;
  if (!allows(ctx, TENANT_ADMIN)) throw forbidden();
  assertTenant(ctx, crProcessId);
  const rows = await ctx.em.find(AccessTokenEntity, { crProcessId }, { orderBy: { createdAt: 'desc' }, limit: LIST_LIMIT });
  return { tokens: rows.map((row) => toAccessToken(row)) };
}

/**
 * AccessTokenService.RevokeAccessToken: by its owner, or by who manages the users of its tenant; ends
 * the token's session (with its session.ended event), which moves the access stamp, so every
 * service's kept access is read again and the next request is refused. Revoking again changes nothing.
 */
async function revokeAccessToken(request: RevokeAccessTokenRequest, ctx: CallContext): Promise<AccessToken> {
  const claims = userOf(ctx);
  if (!TOKEN_ID.test(request.tokenId)) throw invalidField('tokenId', 'param.invalid', { param: 'tokenId' });
  const row = await ctx.em.findOne(AccessTokenEntity, { tokenId: request.tokenId });
  if (!row) throw notFound('access-token');
  if (row.userCode !== claims.userCode) {
    // another's token: only who manages its tenant's users sees it exists
    if (!allows(ctx, TENANT_ADMIN)) throw notFound('access-token');
    try {
      assertTenant(ctx, row.crProcessId as number);
    } catch {
      throw notFound('access-token');
    }
  }
  if (row.revokedAt == null) {
    const actor = actorOf(ctx);
    // the token and its session end together
    await ctx.em.transactional(async (tx) => {
      await tx.execute('update core.access_token set revoked_at = now(), revoked_by = ? where token_id = ? and revoked_at is null', [actor, request.tokenId]);
      await endSession(tx, row.sessionId as string, actor);
    });
    await ctx.em.refresh(row);
  }
  return toAccessToken(row);
}

/** Who manages a tenant's users reads the role for it; others' calls read it too (it is one role). */
const asAdmin = <Req, Res>(handler: (request: Req, ctx: CallContext) => Promise<Res>): Handler<Req, Res> => Object.assign(handler, { roles: ADMIN_ROLES });

/** The AccessTokenService handlers (docs/adr/0134-scoped-personal-access-tokens.md). */
export const accessTokenHandlers = {
  createAccessToken,
  listAccessTokens,
  listTenantAccessTokens: asAdmin(listTenantAccessTokens),
  revokeAccessToken: asAdmin(revokeAccessToken),
};

import { ACCESS_TOKEN_OPERATIONS } from '@platform/contracts/core/access-tokens.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import type { AccessToken } from '@platform/kit/gen/platform/core/v1/access_token.ts';
import type { Backends } from '../backends.ts';
import { asObject } from '../http/record-json.ts';
import { userMetadata } from './crud.ts';
import { callRpc } from './call-rpc.ts';
import { routerFor, type RouteGroup } from './route.ts';

/** The personal access token routes, as declared (libs/contracts/src/core/access-tokens.ts). */
export const ACCESS_TOKEN_ROUTES = ACCESS_TOKEN_OPERATIONS;

/** A token as the API shows it: every field present, null where unset. */
function accessTokenJson(token: AccessToken): Record<string, unknown> {
  return {
    ...token,
    revokedAt: token.revokedAt ?? null,
    revokedBy: token.revokedBy ?? null,
    lastUsedAt: token.lastUsedAt ?? null,
    lastUsedIp: token.lastUsedIp ?? null,
  };
}

/** The body of a create: name, expiresAt (strings), crProcessId (a whole number), roles (strings); nothing else. */
function createRequest(body: unknown): { name: string; expiresAt: string; crProcessId: number; roles: string[] } {
  const fields = asObject(body);
  for (const name of Object.keys(fields)) if (!['name', 'expiresAt', 'crProcessId', 'roles'].includes(name)) throw invalidField(name, 'field.unknown');
  const { name, expiresAt, crProcessId, roles } = fields;
  if (name === undefined || name === null) throw invalidField('name', 'field.required');
  if (typeof name !== 'string') throw invalidField('name', 'field.type', { type: 'string' });
  if (expiresAt === undefined || expiresAt === null) throw invalidField('expiresAt', 'field.required');
  if (typeof expiresAt !== 'string') throw invalidField('expiresAt', 'field.type', { type: 'string' });
  if (crProcessId === undefined || crProcessId === null) throw invalidField('crProcessId', 'field.required');
  if (typeof crProcessId !== 'number' || !Number.isSafeInteger(crProcessId) || crProcessId < 1)
    throw invalidField('crProcessId', 'field.type', { type: 'integer' });
  if (roles === undefined || roles === null) throw invalidField('roles', 'field.required');
  if (!Array.isArray(roles) || roles.length > 1000 || !roles.every((role) => typeof role === 'string' && role.length <= 255))
    throw invalidField('roles', 'field.invalid');
  return { name, expiresAt, crProcessId, roles: roles as string[] };
}

/**
 * /api/access-token (docs/adr/0134-scoped-personal-access-tokens.md): the caller's tokens, a new
 * one (shown once), a tenant's for who manages its users, and revocation.
 */
export function accessTokenRoutes(backends: Backends): RouteGroup {
  const { tenantAccessTokens, accessTokens, createAccessToken, revokeAccessToken } = ACCESS_TOKEN_OPERATIONS;
  return routerFor(ACCESS_TOKEN_ROUTES, {
    tenantAccessTokens: async (req, res, query) => {
      if (query.crProcessId === undefined) throw invalidField('crProcessId', 'field.required');
      const { tokens } = await callRpc(backends, tenantAccessTokens.rpc, { crProcessId: query.crProcessId }, userMetadata(req, res));
      res.json(tokens.map(accessTokenJson));
    },
    accessTokens: async (req, res) => {
      const { tokens } = await callRpc(backends, accessTokens.rpc, {}, userMetadata(req, res));
      res.json(tokens.map(accessTokenJson));
    },
    createAccessToken: async (req, res) => {
      const created = await callRpc(backends, createAccessToken.rpc, createRequest(req.body), userMetadata(req, res));
      res.json({ accessToken: created.accessToken ? accessTokenJson(created.accessToken) : null, token: created.token });
    },
    revokeAccessToken: async (req, res) => {
      res.json(accessTokenJson(await callRpc(backends, revokeAccessToken.rpc, { tokenId: req.params.tokenId ?? '' }, userMetadata(req, res))));
    },
  });
}

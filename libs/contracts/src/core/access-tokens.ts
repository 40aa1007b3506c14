import { AccessTokenServiceService } from '@platform/kit/gen/platform/core/v1/access_token.ts';
import { rpcOperation, type OperationTable } from '../operation.ts';

const TOKEN_ID = { type: 'string', pattern: '^[0-9a-f]{32}$', description: "The token's public id." } as const;
const LIST = 'The tokens, newest first (at most 1,000), never their secrets.';

/**
 * Personal access tokens (docs/adr/0134-scoped-personal-access-tokens.md): a user's own, made with
 * a login's token (never another access token's), and a tenant's for who manages its users.
 */
export const ACCESS_TOKEN_OPERATIONS = {
  tenantAccessTokens: rpcOperation({
    method: 'get',
    path: '/api/access-token/tenant',
    query: { crProcessId: 'id' },
    rpc: { service: 'core', method: AccessTokenServiceService.listTenantAccessTokens, retry: 'read' },
    doc: (sources) => ({
      tag: 'access-token',
      summary: "A tenant's personal access tokens",
      description:
        `${sources.rpc ?? ''} crProcessId is required (400 SVC-SYS-2001); a caller who is not a super user names only its current tenant (403 SVC-SYS-1003).`.trim(),
      ok: { status: 200, schema: { type: 'array', items: sources.ref('AccessToken') }, description: LIST },
    }),
  }),
  accessTokens: rpcOperation({
    method: 'get',
    path: '/api/access-token',
    rpc: { service: 'core', method: AccessTokenServiceService.listAccessTokens, retry: 'read' },
    doc: (sources) => ({
      tag: 'access-token',
      summary: "The caller's personal access tokens",
      description: sources.rpc,
      ok: { status: 200, schema: { type: 'array', items: sources.ref('AccessToken') }, description: LIST },
    }),
  }),
  createAccessToken: rpcOperation({
    method: 'post',
    path: '/api/access-token',
    rpc: { service: 'core', method: AccessTokenServiceService.createAccessToken, retry: 'write' },
    doc: (sources) => ({
      tag: 'access-token',
      summary: 'Create a personal access token: shown this once',
      description:
        `${sources.rpc ?? ''} A role the caller does not hold in the tenant, or a tenant it does not hold, is 403 SVC-SYS-1003; an expiry past a year, 400 SVC-SYS-2001. Use it as Authorization: Bearer <token>.`.trim(),
      body: { schema: sources.ref('CreateAccessTokenRequest') },
      ok: {
        status: 200,
        schema: sources.ref('CreatedAccessToken'),
        description: 'The token as listed, and the token itself (`token`), which is never shown again.',
      },
    }),
  }),
  revokeAccessToken: rpcOperation({
    method: 'post',
    path: '/api/access-token/:tokenId/revoke',
    rpc: { service: 'core', method: AccessTokenServiceService.revokeAccessToken, retry: 'write' },
    doc: (sources) => ({
      tag: 'access-token',
      summary: 'Revoke a personal access token',
      description: `${sources.rpc ?? ''} Another user's token outside the tenants the caller manages is 404.`.trim(),
      pathParams: { tokenId: TOKEN_ID },
      ok: { status: 200, schema: sources.ref('AccessToken'), description: 'The token, revoked.' },
    }),
  }),
} as const satisfies OperationTable;

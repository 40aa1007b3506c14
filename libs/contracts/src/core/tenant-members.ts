import { UserInfoServiceService } from '@platform/kit/gen/platform/core/v1/user_info.ts';
import { rpcOperation, type OperationTable } from '../operation.ts';
import { userInfo } from './user-info.ts';

const MEMBER = 'platform.core.v1.TenantMember';

/**
 * The users a tenant's groups may hold (docs/adr/0125-a-tenant-finds-its-members-not-others.md):
 * those with a select for the tenant, wherever their user-info is kept. Its route comes before the
 * CRUD routes, so that `tenant-members` is never read as a user-info's key.
 */
export const TENANT_MEMBER_OPERATIONS = {
  tenantMembers: rpcOperation({
    method: 'get',
    path: '/api/user-info/tenant-members',
    query: { crProcessId: 'id', searchTerm: 'text' },
    rpc: { service: 'core', method: UserInfoServiceService.listTenantMembers, retry: 'read' },
    doc: (sources) => ({
      tag: userInfo.path,
      summary: "The users who may be members of a tenant's groups",
      description: `${sources.rpc ?? ''} crProcessId is required (400 SVC-SYS-2002).`.trim(),
      ok: {
        status: 200,
        schema: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              userCode: { type: 'string', description: sources.field(MEMBER, 'userCode') },
              userDescription: { type: 'string', description: sources.field(MEMBER, 'userDescription') },
            },
            required: ['userCode', 'userDescription'],
          },
        },
        description: 'The members, by userCode.',
      },
    }),
  }),
} as const satisfies OperationTable;

import { TENANT_MEMBER_OPERATIONS } from '@platform/contracts/core/tenant-members.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { Backends } from '../backends.ts';
import { userMetadata } from './crud.ts';
import { callRpc } from './call-rpc.ts';
import { routerFor, type RouteGroup } from './route.ts';

/** The route of the tenant's members, as declared (libs/contracts/src/core/tenant-members.ts). */
export const TENANT_MEMBER_ROUTES = TENANT_MEMBER_OPERATIONS;

/**
 * GET /api/user-info/tenant-members (docs/adr/0125-a-tenant-finds-its-members-not-others.md): the
 * users with a select for a tenant, for a group's member picker. Before the CRUD routes.
 */
export function tenantMemberRoutes(backends: Backends): RouteGroup {
  const { tenantMembers } = TENANT_MEMBER_OPERATIONS;
  return routerFor(TENANT_MEMBER_ROUTES, {
    tenantMembers: async (req, res, query) => {
      // a missing crProcessId is 400 SVC-SYS-2002, as for a list
      if (query.crProcessId === undefined) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
      const request = { crProcessId: query.crProcessId, searchTerm: query.searchTerm };
      const response = await callRpc(backends, tenantMembers.rpc, request, userMetadata(req, res));
      res.json(response.members.map((member) => ({ userCode: member.userCode, userDescription: member.userDescription })));
    },
  });
}

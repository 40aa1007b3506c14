import type { Server } from '@grpc/grpc-js';
import type { CallContext } from '@platform/libs/auth/caller.ts';
import { authorize } from '@platform/libs/auth/caller.ts';
import { crudHandlers, findVisible, resourceRuntime, roleOf, toMessages } from '@platform/libs/crud/handlers.ts';
import { implement, type Runtime } from '@platform/libs/grpc/server.ts';
import type { ListBranchesByPartnerRequest } from '@platform/libs/gen/platform/bpm/v1/branch.ts';
import { branch } from './resources/branch/branch.resource.ts';
import { businessPartner } from './resources/business-partner/business-partner.resource.ts';
import { schemas } from './db.ts';

/** Registers the partner-management service's gRPC implementations. */
export function register(server: Server, runtime: Runtime): void {
  const partners = resourceRuntime(schemas, businessPartner);
  const branches = resourceRuntime(schemas, branch);
  server.addService(businessPartner.grpc, implement(runtime, crudHandlers(partners)));
  server.addService(
    branch.grpc,
    implement(runtime, {
      ...crudHandlers(branches),
      listBranchesByPartner: async (request: ListBranchesByPartnerRequest, ctx: CallContext) => {
        authorize(ctx, roleOf(branch, 'read'));
        const partner = await findVisible(partners, ctx.em, ctx, request.businessPartnerId);
        const rows = await ctx.em.find(branches.entity, { businessPartnerId: partner.id }, { orderBy: { id: 'asc' } });
        return { branches: await toMessages(branches, rows, ctx) };
      },
    }),
  );
}

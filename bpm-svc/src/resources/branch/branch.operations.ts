import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { roleOf, toMessages } from '@platform/service-kit/crud/handlers.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { findVisible } from '@platform/service-kit/crud/key-read.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import type { ListBranchesByPartnerRequest } from '@platform/kit/gen/platform/bpm/v1/branch.ts';
import { branch } from '@platform/contracts/bpm/branch.ts';

/**
 * ListBranchesByPartner: the branches of one business partner (docs/interface.md#partner-operations), 404 when the
 * partner is not visible to the caller (another tenant's does not exist for it).
 */
export function branchByPartner(runtimes: ReadonlyMap<string, ResourceRuntime>) {
  const partners = runtimes.get('business-partner');
  const branches = runtimes.get('branch');
  if (!partners || !branches) throw new Error('branch operations need business-partner and branch');
  return {
    listBranchesByPartner: requiring(roleOf(branch, 'read'), async (request: ListBranchesByPartnerRequest, ctx: CallContext) => {
      const partner = await findVisible(partners, ctx.em, ctx, request.businessPartnerId);
      const rows = await ctx.em.find(branches.entity, { businessPartnerId: partner.id }, { orderBy: { id: 'asc' } });
      return { branches: await toMessages(branches, rows, ctx) };
    }),
  };
}

import { assertTenant, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { DmsStorageUsage, GetDmsStorageUsageRequest } from '@platform/kit/gen/platform/dms/v1/dms_file.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { limitsOf, reservedBytes } from './tenant-limits.ts';

/**
 * GetDmsStorageUsage (docs/interface.md#files): what an upload's quota check sees, for the console's
 * dashboard: the bytes and count of the tenant's live files, the bytes its unfinished resumable
 * uploads reserve (the two sums assertQuota adds) and its storageQuotaBytes, unset when it has none. Needs
 * dms-file:read (the figure is about the tenant's files; the quota is what an upload of such a user
 * is refused by anyway); crProcessId is required (400 SVC-SYS-2002) and a user who is not a super
 * user may name only its own tenant (403 SVC-SYS-1003).
 */
export function storageUsage() {
  return {
    getDmsStorageUsage: requiring(roleOf(dmsFile, 'read'), async (request: GetDmsStorageUsageRequest, ctx: CallContext): Promise<DmsStorageUsage> => {
      const crProcessId = request.crProcessId;
      if (!crProcessId) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
      assertTenant(ctx, crProcessId);
      const [[files], limits, reserved] = await Promise.all([
        ctx.em.execute<{ used: string; count: string }[]>(
          'select coalesce(sum(file_size), 0) as used, count(*) as count from dms.dms_file where cr_process_id = ? and not deleted',
          [crProcessId],
        ),
        limitsOf(ctx.em, crProcessId),
        reservedBytes(ctx.em, crProcessId),
      ]);
      return {
        usedBytes: Number(files?.used ?? 0),
        fileCount: Number(files?.count ?? 0),
        reservedBytes: reserved,
        ...(limits.storageQuotaBytes === undefined ? {} : { storageQuotaBytes: limits.storageQuotaBytes }),
      };
    }),
  };
}

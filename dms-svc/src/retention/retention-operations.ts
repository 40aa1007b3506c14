import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { findVisible } from '@platform/service-kit/crud/key-read.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type {
  DryRunDmsRetentionPolicyRequest,
  DryRunDmsRetentionPolicyResponse,
  RunDmsRetentionRequest,
  RunDmsRetentionResponse,
  SweepDmsStorageResponse,
} from '@platform/kit/gen/platform/dms/v1/dms_retention_policy.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import { sweepStorage } from '../files/storage-sweep.ts';
import type { FileStorage } from '../files/storage.ts';
import { dmsRetentionPolicy } from '@platform/contracts/dms/dms-retention-policy.ts';
import { policyCandidates } from './candidates.ts';
import { runRetention } from './run-retention.ts';

/** Most files a dry run lists (count covers them all). */
const DRY_RUN_LIMIT = 1000;

/**
 * DryRunDmsRetentionPolicy (dms-retention-policy:read; a policy of another tenant is 404): the files
 * the policy would act on now, by the run's own selection (candidates.ts), whether or not the policy
 * is active. RunDmsRetention: one retention run, and SweepDmsStorage: one sweep of the file storage,
 * for the internal credential only (the job calls both itself; the RPCs let an operator or a test
 * run them now).
 */
export function retentionOperations(storage: FileStorage, log: Logger, sweepGraceMs: number) {
  return (runtimes: ReadonlyMap<string, ResourceRuntime>) => {
    const rt = runtimes.get(dmsRetentionPolicy.path);
    if (!rt) throw new Error('retention operations need the dms-retention-policy runtime');
    return {
      dryRunDmsRetentionPolicy: requiring(
        roleOf(dmsRetentionPolicy, 'read'),
        async (request: DryRunDmsRetentionPolicyRequest, ctx: CallContext): Promise<DryRunDmsRetentionPolicyResponse> => {
          const policy = await findVisible(rt, ctx.em, ctx, request.id);
          const { where, params } = policyCandidates({
            crProcessId: Number(policy.crProcessId),
            retentionDays: Number(policy.retentionDays),
            categoryId: policy.categoryId == null ? null : Number(policy.categoryId),
            entityType: (policy.entityType as string | null | undefined) ?? null,
          });
          const files = await ctx.em.execute<{ id: string; original_file_name: string | null; upload_date: Date | null }[]>(
            `select f.id, f.original_file_name, f.upload_date from dms.dms_file f where ${where} order by f.id limit ${DRY_RUN_LIMIT}`,
            params,
          );
          const [total] = await ctx.em.execute<{ count: string }[]>(`select count(*) as count from dms.dms_file f where ${where}`, params);
          return {
            policyId: Number(policy.id),
            action: String(policy.action ?? 'SOFT_DELETE'),
            files: files.map((file) => ({
              fileId: Number(file.id),
              originalFileName: file.original_file_name ?? '',
              uploadDate: file.upload_date ? new Date(file.upload_date).toISOString() : '',
            })),
            count: Number(total?.count ?? 0),
          };
        },
      ),
      runDmsRetention: async (request: RunDmsRetentionRequest, ctx: CallContext): Promise<RunDmsRetentionResponse> => {
        if (ctx.caller.kind !== 'internal') throw unauthenticated();
        return runRetention(ctx.em, storage, log, request.crProcessId);
      },
      sweepDmsStorage: async (_request: unknown, ctx: CallContext): Promise<SweepDmsStorageResponse> => {
        if (ctx.caller.kind !== 'internal') throw unauthenticated();
        return sweepStorage(ctx.em, storage, log, sweepGraceMs);
      },
    };
  };
}

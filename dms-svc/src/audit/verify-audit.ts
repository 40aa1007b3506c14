import { assertTenant, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { VerifyDmsAuditLogsRequest, VerifyDmsAuditLogsResponse } from '@platform/kit/gen/platform/dms/v1/dms_audit_log.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import { DmsAuditLogEntity } from '../db.ts';
import { dmsAuditLog } from '@platform/contracts/dms/dms-audit-log.ts';
import { auditHash, GENESIS_HASH } from './audit-hash.ts';

const BATCH = 1000;

/**
 * VerifyDmsAuditLogs: walks a tenant's audit rows in id order and recomputes the chain; the first
 * row whose previousHash is not its predecessor's hash, or whose hash does not match its content,
 * is `firstBrokenId` (the walk stops there; `checked` counts the rows read, that one included).
 * Needs dms-audit-log:read; a user who is not a super user names only its own tenant (403
 * SVC-SYS-1003). Rows are read a batch at a time, outside the identity map, so memory stays flat.
 */
export function auditVerify() {
  return {
    verifyDmsAuditLogs: requiring(
      roleOf(dmsAuditLog, 'read'),
      async (request: VerifyDmsAuditLogsRequest, ctx: CallContext): Promise<VerifyDmsAuditLogsResponse> => {
        const crProcessId = request.crProcessId;
        if (!crProcessId) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
        assertTenant(ctx, crProcessId);
        let previous = GENESIS_HASH;
        let checked = 0;
        let after = 0;
        for (;;) {
          const rows = await ctx.em.find(
            DmsAuditLogEntity,
            { crProcessId, id: { $gt: after } },
            { orderBy: { id: 'asc' }, limit: BATCH, disableIdentityMap: true },
          );
          for (const row of rows) {
            checked++;
            if (row.previousHash !== previous || row.hash !== auditHash(row.previousHash, row)) {
              return { intact: false, checked, firstBrokenId: row.id };
            }
            previous = row.hash;
            after = row.id;
          }
          if (rows.length < BATCH) return { intact: true, checked };
        }
      },
    ),
  };
}

import type { Router } from 'express';
import { DmsAuditLogServiceService, type VerifyDmsAuditLogsResponse } from '@platform/libs/gen/platform/dms/v1/dms_audit_log.ts';
import { DomainError } from '@platform/libs/errors/domain-error.ts';
import type { Backends } from '../backends.ts';
import { userMetadata } from './crud.ts';
import { routerFor, type RouteTable } from './route.ts';

/** Registered before the CRUD routes, so that `verify` is never read as a record's key. */
export const DMS_ROUTES = {
  verifyAuditLogs: { method: 'get', path: '/api/dms-audit-log/verify', query: { crProcessId: 'id' } },
} as const satisfies RouteTable;

/**
 * GET /api/dms-audit-log/verify?crProcessId=: recomputes the tenant's audit hash chain
 * (docs/decisions.md) and answers `{intact, checked, firstBrokenId}` (`firstBrokenId` null when
 * intact). Needs dms-audit-log:read; a missing crProcessId is 400 SVC-SYS-2002, as for a list.
 */
export function dmsRoutes(backends: Backends): Router {
  return routerFor(DMS_ROUTES, {
    verifyAuditLogs: async (req, res, query) => {
      if (query.crProcessId === undefined) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
      const result = await backends.call<VerifyDmsAuditLogsResponse>(
        'dms',
        DmsAuditLogServiceService,
        'verifyDmsAuditLogs',
        { crProcessId: query.crProcessId },
        userMetadata(req, res),
      );
      res.json({ intact: result.intact, checked: Number(result.checked), firstBrokenId: result.firstBrokenId ?? null });
    },
  });
}

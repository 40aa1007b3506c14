import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { DmsAuditLogServiceService } from '@platform/libs/gen/platform/dms/v1/dms_audit_log.ts';
import { DmsRetentionPolicyServiceService } from '@platform/libs/gen/platform/dms/v1/dms_retention_policy.ts';
import { DmsFileServiceService } from '@platform/libs/gen/platform/dms/v1/dms_file.ts';
import { DomainError } from '@platform/libs/errors/domain-error.ts';
import type { Backends } from '../backends.ts';
import { idParam } from '../http/params.ts';
import { recordToJson } from '../http/record-json.ts';
import { userMetadata } from './crud.ts';
import { routerFor, type RouteGroup, type RouteTable } from './route.ts';

/**
 * The document service's routes beyond the CRUD sets (docs/interface.md#files, and the audit
 * chain's check, a retention policy's dry run). Registered before the CRUD routes, so that `verify`,
 * `by-entity` and `search` are never read as a record's key.
 */
export const DMS_ROUTES = {
  verifyAuditLogs: { method: 'get', path: '/api/dms-audit-log/verify', query: { crProcessId: 'id' } },
  filesByEntity: { method: 'get', path: '/api/dms-file/by-entity', query: { entityType: 'text', entityId: 'id' } },
  searchFiles: { method: 'get', path: '/api/dms-file/search', query: { crProcessId: 'id', searchTerm: 'text' } },
  fileDownloadUrl: { method: 'get', path: '/api/dms-file/:id/download-url', query: { inline: 'text' } },
  moveFileToCategory: { method: 'put', path: '/api/dms-file/:id/category', query: { categoryId: 'id' } },
  retentionDryRun: { method: 'get', path: '/api/dms-retention-policy/:id/dry-run' },
} as const satisfies RouteTable;

/** `true` or `false` (absent: false), else 400 SVC-SYS-2001 naming it. */
function flag(raw: string | undefined, name: string): boolean {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: name });
}

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: name });
  return value;
}

export function dmsRoutes(backends: Backends): RouteGroup {
  return routerFor(DMS_ROUTES, {
    // recomputes the tenant's audit hash chain (docs/decisions.md): {intact, checked, firstBrokenId};
    // needs dms-audit-log:read; a missing crProcessId is 400 SVC-SYS-2002, as for a list
    verifyAuditLogs: async (req, res, query) => {
      if (query.crProcessId === undefined) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
      const result = await backends.call('dms', DmsAuditLogServiceService.verifyDmsAuditLogs, { crProcessId: query.crProcessId }, userMetadata(req, res));
      res.json({ intact: result.intact, checked: Number(result.checked), firstBrokenId: result.firstBrokenId ?? null });
    },
    filesByEntity: async (req, res, query) => {
      const request = { entityType: required(query.entityType, 'entityType'), entityId: required(query.entityId, 'entityId') };
      const response = await backends.call('dms', DmsFileServiceService.listDmsFilesByEntity, request, userMetadata(req, res));
      res.json(response.files.map((record) => recordToJson(dmsFile, record)));
    },
    searchFiles: async (req, res, query) => {
      const request = { crProcessId: required(query.crProcessId, 'crProcessId'), searchTerm: query.searchTerm };
      const response = await backends.call('dms', DmsFileServiceService.searchDmsFiles, request, userMetadata(req, res));
      res.json(response.files.map((record) => recordToJson(dmsFile, record)));
    },
    fileDownloadUrl: async (req, res, query) => {
      const response = await backends.call('dms', DmsFileServiceService.getDmsFileDownloadUrl, { id: idParam(req.params.id), inline: flag(query.inline, 'inline') }, userMetadata(req, res));
      res.json({ url: response.url, expiresAt: response.expiresAt });
    },
    moveFileToCategory: async (req, res, query) => {
      const moved = await backends.call('dms', DmsFileServiceService.moveDmsFileToCategory, { id: idParam(req.params.id), categoryId: required(query.categoryId, 'categoryId') }, userMetadata(req, res));
      res.json(recordToJson(dmsFile, moved));
    },
    // what the policy would do now, without doing it (dms-retention-policy:read)
    retentionDryRun: async (req, res) => {
      const result = await backends.call('dms', DmsRetentionPolicyServiceService.dryRunDmsRetentionPolicy, { id: idParam(req.params.id) }, userMetadata(req, res));
      res.json({
        policyId: Number(result.policyId),
        action: result.action,
        files: result.files.map((file) => ({ fileId: Number(file.fileId), originalFileName: file.originalFileName, uploadDate: file.uploadDate })),
        count: Number(result.count),
      });
    },
  });
}

import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { DMS_OPERATIONS } from '@platform/contracts/dms/operations.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { DmsFileText } from '@platform/kit/gen/platform/dms/v1/dms_file.ts';
import type { Backends } from '../backends.ts';
import { idParam } from '../http/params.ts';
import { recordToJson } from '../http/record-json.ts';
import { userMetadata } from './crud.ts';
import { callRpc } from './call-rpc.ts';
import { routerFor, type RouteGroup } from './route.ts';

/**
 * The document service's routes beyond the CRUD sets, as declared (libs/contracts/src/dms/operations.ts).
 * Registered before the CRUD routes, so that `verify`, `by-entity` and `search` are never read as a
 * record's key.
 */
export const DMS_ROUTES = DMS_OPERATIONS;

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

/** A file's text as the API document shows it: every field, null where the row has none. */
function fileTextJson(text: DmsFileText) {
  return {
    fileId: Number(text.fileId),
    status: text.status,
    reason: text.reason ?? null,
    attempts: text.attempts,
    language: text.language ?? null,
    method: text.method ?? null,
    pages: text.pages ?? null,
    truncated: text.truncated,
    characters: Number(text.characters),
    finishedAt: text.finishedAt ?? null,
    text: text.text ?? null,
  };
}

export function dmsRoutes(backends: Backends): RouteGroup {
  const {
    verifyAuditLogs,
    storageUsage,
    filesByEntity,
    searchFiles,
    fileText,
    extractFileText,
    fileDownloadUrl,
    moveFileToCategory,
    retentionDryRun,
    applyMatchingRules,
  } = DMS_OPERATIONS;
  return routerFor(DMS_ROUTES, {
    // recomputes the tenant's audit hash chain (docs/adr/0029-the-audit-chain-a-hash-chain.md): {intact, checked, firstBrokenId};
    // needs dms-audit-log:read; a missing crProcessId is 400 SVC-SYS-2002, as for a list
    verifyAuditLogs: async (req, res, query) => {
      if (query.crProcessId === undefined) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
      const result = await callRpc(backends, verifyAuditLogs.rpc, { crProcessId: query.crProcessId }, userMetadata(req, res));
      res.json({ intact: result.intact, checked: Number(result.checked), firstBrokenId: result.firstBrokenId ?? null });
    },
    // the dashboard's storage meter (dms-file:read); a missing crProcessId is 400 SVC-SYS-2002
    storageUsage: async (req, res, query) => {
      if (query.crProcessId === undefined) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
      const usage = await callRpc(backends, storageUsage.rpc, { crProcessId: query.crProcessId }, userMetadata(req, res));
      res.json({
        usedBytes: usage.usedBytes,
        fileCount: usage.fileCount,
        storageQuotaBytes: usage.storageQuotaBytes ?? null,
        reservedBytes: usage.reservedBytes,
      });
    },
    filesByEntity: async (req, res, query) => {
      const request = { entityType: required(query.entityType, 'entityType'), entityId: required(query.entityId, 'entityId') };
      const response = await callRpc(backends, filesByEntity.rpc, request, userMetadata(req, res));
      res.json(response.files.map((record) => recordToJson(dmsFile, record)));
    },
    searchFiles: async (req, res, query) => {
      const { crProcessId, searchTerm, categoryId, mimeType, uploadedFrom, uploadedTo, createdBy } = query;
      const request = { crProcessId: required(crProcessId, 'crProcessId'), searchTerm, categoryId, mimeType, uploadedFrom, uploadedTo, createdBy };
      const response = await callRpc(backends, searchFiles.rpc, request, userMetadata(req, res));
      res.json(response.files.map((record) => recordToJson(dmsFile, record)));
    },
    fileText: async (req, res) => {
      res.json(fileTextJson(await callRpc(backends, fileText.rpc, { id: idParam(req.params.id) }, userMetadata(req, res))));
    },
    extractFileText: async (req, res) => {
      res.json(fileTextJson(await callRpc(backends, extractFileText.rpc, { id: idParam(req.params.id) }, userMetadata(req, res))));
    },
    fileDownloadUrl: async (req, res, query) => {
      const response = await callRpc(
        backends,
        fileDownloadUrl.rpc,
        { id: idParam(req.params.id), inline: flag(query.inline, 'inline') },
        userMetadata(req, res),
      );
      res.json({ url: response.url, expiresAt: response.expiresAt });
    },
    moveFileToCategory: async (req, res, query) => {
      const moved = await callRpc(
        backends,
        moveFileToCategory.rpc,
        { id: idParam(req.params.id), categoryId: required(query.categoryId, 'categoryId') },
        userMetadata(req, res),
      );
      res.json(recordToJson(dmsFile, moved));
    },
    // what the policy would do now, without doing it (dms-retention-policy:read)
    retentionDryRun: async (req, res) => {
      const result = await callRpc(backends, retentionDryRun.rpc, { id: idParam(req.params.id) }, userMetadata(req, res));
      res.json({
        policyId: Number(result.policyId),
        action: result.action,
        files: result.files.map((file) => ({ fileId: Number(file.fileId), originalFileName: file.originalFileName, uploadDate: file.uploadDate })),
        count: Number(result.count),
      });
    },
    // the tenant's rules applied again (dms-matching-rule:write); a missing crProcessId is 400 SVC-SYS-2002
    applyMatchingRules: async (req, res, query) => {
      if (query.crProcessId === undefined) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
      const result = await callRpc(backends, applyMatchingRules.rpc, { crProcessId: query.crProcessId }, userMetadata(req, res));
      res.json({ checked: Number(result.checked), assigned: Number(result.assigned) });
    },
  });
}

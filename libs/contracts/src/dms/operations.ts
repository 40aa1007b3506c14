import type { SchemaObject } from 'openapi3-ts/oas31';
import { DmsAuditLogServiceService } from '@platform/kit/gen/platform/dms/v1/dms_audit_log.ts';
import { DmsFileServiceService } from '@platform/kit/gen/platform/dms/v1/dms_file.ts';
import { DmsMatchingRuleServiceService } from '@platform/kit/gen/platform/dms/v1/dms_matching_rule.ts';
import { DmsRetentionPolicyServiceService } from '@platform/kit/gen/platform/dms/v1/dms_retention_policy.ts';
import { rpcOperation, type DocSources, type OperationTable } from '../operation.ts';
import { dmsAuditLog } from './dms-audit-log.ts';
import { dmsFile } from './dms-file.ts';
import { dmsMatchingRule } from './dms-matching-rule.ts';
import { dmsRetentionPolicy } from './dms-retention-policy.ts';

const ID = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
/** The `:id` of a file's routes. */
export const FILE_ID = { id: { ...ID, description: "The file's id." } } as const;
const files = (sources: DocSources) => ({ type: 'array', items: sources.record(dmsFile) }) as const;

const TEXT = 'platform.dms.v1.DmsFileText';
/** A file's text as GET /api/dms-file/{id}/text answers it. */
const fileText = (sources: DocSources): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    fileId: { ...ID, description: sources.field(TEXT, 'fileId') },
    status: { type: 'string', enum: ['PENDING', 'RUNNING', 'DONE', 'FAILED', 'SKIPPED'], description: sources.field(TEXT, 'status') },
    reason: { type: ['string', 'null'], description: sources.field(TEXT, 'reason') },
    attempts: { type: 'integer', minimum: 0, description: sources.field(TEXT, 'attempts') },
    language: { type: ['string', 'null'], enum: ['english', 'turkish', null], description: sources.field(TEXT, 'language') },
    method: { type: ['string', 'null'], enum: ['text-layer', 'ocr', 'plain', null], description: sources.field(TEXT, 'method') },
    pages: { type: ['integer', 'null'], minimum: 0, description: sources.field(TEXT, 'pages') },
    truncated: { type: 'boolean', description: sources.field(TEXT, 'truncated') },
    characters: { type: 'integer', minimum: 0, description: sources.field(TEXT, 'characters') },
    finishedAt: { type: ['string', 'null'], format: 'date-time', description: sources.field(TEXT, 'finishedAt') },
    text: { type: ['string', 'null'], description: sources.field(TEXT, 'text') },
  },
  required: ['fileId', 'status', 'reason', 'attempts', 'language', 'method', 'pages', 'truncated', 'characters', 'finishedAt', 'text'],
});

const VERIFY = 'platform.dms.v1.VerifyDmsAuditLogsResponse';
const DRY_RUN = 'platform.dms.v1.DryRunDmsRetentionPolicyResponse';
const USAGE = 'platform.dms.v1.DmsStorageUsage';
const CANDIDATE = 'platform.dms.v1.DmsRetentionCandidate';
const APPLIED = 'platform.dms.v1.ApplyDmsMatchingRulesResponse';

/**
 * The document service's operations beyond the CRUD sets (docs/interface.md#files, and the audit
 * chain's check, a retention policy's dry run, the matching rules' re-apply). Their routes come before the CRUD routes, so that
 * `verify`, `by-entity` and `search` are never read as a record's key.
 */
export const DMS_OPERATIONS = {
  verifyAuditLogs: rpcOperation({
    method: 'get',
    path: '/api/dms-audit-log/verify',
    query: { crProcessId: 'id' },
    rpc: { service: 'dms', method: DmsAuditLogServiceService.verifyDmsAuditLogs, retry: 'read' },
    doc: (sources) => ({
      tag: dmsAuditLog.path,
      summary: "Check a tenant's audit hash chain",
      description: `${sources.rpc ?? ''} Needs dms-audit-log:read; crProcessId is required (400 SVC-SYS-2002).`.trim(),
      ok: {
        status: 200,
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            intact: { type: 'boolean', description: sources.field(VERIFY, 'intact') },
            checked: { type: 'integer', format: 'int64', minimum: 0, description: sources.field(VERIFY, 'checked') },
            firstBrokenId: { type: ['integer', 'null'], format: 'int64', description: sources.field(VERIFY, 'firstBrokenId') },
          },
          required: ['intact', 'checked', 'firstBrokenId'],
        },
        description: "The chain's state.",
      },
    }),
  }),
  filesByEntity: rpcOperation({
    method: 'get',
    path: '/api/dms-file/by-entity',
    query: { entityType: 'text', entityId: 'id' },
    rpc: { service: 'dms', method: DmsFileServiceService.listDmsFilesByEntity, retry: 'read' },
    doc: (sources) => ({
      tag: dmsFile.path,
      summary: 'The files linked to one entity',
      description: sources.rpc,
      ok: { status: 200, schema: files(sources), description: 'The files, by id.' },
    }),
  }),
  storageUsage: rpcOperation({
    method: 'get',
    path: '/api/dms-file/usage',
    query: { crProcessId: 'id' },
    rpc: { service: 'dms', method: DmsFileServiceService.getDmsStorageUsage, retry: 'read' },
    doc: (sources) => ({
      tag: dmsFile.path,
      summary: "A tenant's storage used and its quota",
      description: `${sources.rpc ?? ''} Needs dms-file:read; crProcessId is required (400 SVC-SYS-2002).`.trim(),
      ok: {
        status: 200,
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            usedBytes: { type: 'integer', format: 'int64', minimum: 0, description: sources.field(USAGE, 'usedBytes') },
            fileCount: { type: 'integer', format: 'int64', minimum: 0, description: sources.field(USAGE, 'fileCount') },
            storageQuotaBytes: { type: ['integer', 'null'], format: 'int64', minimum: 0, description: sources.field(USAGE, 'storageQuotaBytes') },
            reservedBytes: { type: 'integer', format: 'int64', minimum: 0, description: sources.field(USAGE, 'reservedBytes') },
          },
          required: ['usedBytes', 'fileCount', 'storageQuotaBytes', 'reservedBytes'],
        },
        description: "The tenant's storage.",
      },
    }),
  }),
  searchFiles: rpcOperation({
    method: 'get',
    path: '/api/dms-file/search',
    query: { crProcessId: 'id', searchTerm: 'text', categoryId: 'id', mimeType: 'text', uploadedFrom: 'text', uploadedTo: 'text', createdBy: 'text' },
    rpc: { service: 'dms', method: DmsFileServiceService.searchDmsFiles, retry: 'read' },
    doc: (sources) => ({
      tag: dmsFile.path,
      summary: 'Search the files of a tenant',
      description: sources.rpc,
      ok: { status: 200, schema: files(sources), description: 'The files, best match first (by id without a search term), at most 500.' },
    }),
  }),
  fileText: rpcOperation({
    method: 'get',
    path: '/api/dms-file/:id/text',
    rpc: { service: 'dms', method: DmsFileServiceService.getDmsFileText, retry: 'read' },
    doc: (sources) => ({
      tag: dmsFile.path,
      summary: "A file's text",
      description: `${sources.rpc ?? ''} Needs dms-file:read.`.trim(),
      pathParams: FILE_ID,
      ok: { status: 200, schema: fileText(sources), description: "The file's text and its state." },
    }),
  }),
  extractFileText: rpcOperation({
    method: 'post',
    path: '/api/dms-file/:id/text/extract',
    rpc: { service: 'dms', method: DmsFileServiceService.extractDmsFileText, retry: 'write' },
    doc: (sources) => ({
      tag: dmsFile.path,
      summary: "Read a file's words again",
      description: `${sources.rpc ?? ''} Needs dms-file:write; a file being read is 409 SVC-SYS-4004.`.trim(),
      pathParams: FILE_ID,
      ok: { status: 200, schema: fileText(sources), description: "The file's text row, PENDING." },
    }),
  }),
  fileDownloadUrl: rpcOperation({
    method: 'get',
    path: '/api/dms-file/:id/download-url',
    query: { inline: 'text' },
    rpc: { service: 'dms', method: DmsFileServiceService.getDmsFileDownloadUrl, retry: 'read' },
    doc: (sources) => ({
      tag: dmsFile.path,
      summary: 'A signed download URL',
      description: sources.rpc,
      pathParams: FILE_ID,
      ok: { status: 200, schema: sources.ref('DmsFileDownloadUrl'), description: 'The URL and its expiry.' },
    }),
  }),
  moveFileToCategory: rpcOperation({
    method: 'put',
    path: '/api/dms-file/:id/category',
    query: { categoryId: 'id' },
    rpc: { service: 'dms', method: DmsFileServiceService.moveDmsFileToCategory, retry: 'write' },
    doc: (sources) => ({
      tag: dmsFile.path,
      summary: 'Move a file to a category',
      description: sources.rpc,
      pathParams: FILE_ID,
      ok: { status: 200, schema: sources.record(dmsFile), description: 'The file, its version raised.' },
    }),
  }),
  // what the policy would do now, without doing it (dms-retention-policy:read)
  retentionDryRun: rpcOperation({
    method: 'get',
    path: '/api/dms-retention-policy/:id/dry-run',
    rpc: { service: 'dms', method: DmsRetentionPolicyServiceService.dryRunDmsRetentionPolicy, retry: 'read' },
    doc: (sources) => ({
      tag: dmsRetentionPolicy.path,
      summary: 'What a retention policy would do now, without doing it',
      description:
        `${sources.rpc ?? ''} Needs dms-retention-policy:read; the files are those the next retention run would act on (at most 1,000 listed; count is all of them).`.trim(),
      pathParams: { id: { ...ID, description: "The policy's id." } },
      ok: {
        status: 200,
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            policyId: { type: 'integer', format: 'int64', description: sources.field(DRY_RUN, 'policyId') },
            action: { type: 'string', enum: ['SOFT_DELETE', 'PURGE'], description: sources.field(DRY_RUN, 'action') },
            files: {
              type: 'array',
              description: sources.field(DRY_RUN, 'files'),
              items: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  fileId: { type: 'integer', format: 'int64', description: sources.field(CANDIDATE, 'fileId') },
                  originalFileName: { type: 'string', description: sources.field(CANDIDATE, 'originalFileName') },
                  uploadDate: { type: 'string', format: 'date-time', description: sources.field(CANDIDATE, 'uploadDate') },
                },
                required: ['fileId', 'originalFileName', 'uploadDate'],
              },
            },
            count: { type: 'integer', format: 'int64', minimum: 0, description: sources.field(DRY_RUN, 'count') },
          },
          required: ['policyId', 'action', 'files', 'count'],
        },
        description: 'The policy, its action and the files it would act on.',
      },
    }),
  }),
  // the tenant's matching rules applied again to its files without a category (dms-matching-rule:write)
  applyMatchingRules: rpcOperation({
    method: 'post',
    path: '/api/dms-matching-rule/apply',
    query: { crProcessId: 'id' },
    rpc: { service: 'dms', method: DmsMatchingRuleServiceService.applyDmsMatchingRules, retry: 'write' },
    doc: (sources) => ({
      tag: dmsMatchingRule.path,
      summary: "Apply a tenant's matching rules to its files without a category",
      description: `${sources.rpc ?? ''} Needs dms-matching-rule:write; crProcessId is required (400 SVC-SYS-2002).`.trim(),
      ok: {
        status: 200,
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            checked: { type: 'integer', format: 'int64', minimum: 0, description: sources.field(APPLIED, 'checked') },
            assigned: { type: 'integer', format: 'int64', minimum: 0, description: sources.field(APPLIED, 'assigned') },
          },
          required: ['checked', 'assigned'],
        },
        description: 'How many files were looked at, and how many of them a rule gave a category.',
      },
    }),
  }),
} as const satisfies OperationTable;

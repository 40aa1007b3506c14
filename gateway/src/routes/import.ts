import type { Response } from 'express';
import type { Metadata } from '@grpc/grpc-js';
import type { OperationTable } from '@platform/contracts/operation.ts';
import { importLimitsOf } from '@platform/kit/config/import-limits.ts';
import { DomainError, invalidField, notFound } from '@platform/kit/errors/domain-error.ts';
import { ImportServiceService, type ImportRun, type ImportRowError } from '@platform/kit/gen/platform/common/v1/import.ts';
import type { Resource, ServiceName } from '@platform/kit/resource/resource.ts';
import type { Backends } from '../backends.ts';
import { idParam } from '../http/params.ts';
import { sendJson } from '../http/json-answer.ts';
import { userMetadata } from './crud.ts';
import { readImportUpload } from './import-upload.ts';
import { routerFor, type PathParams, type RouteGroup } from './route.ts';

type Request = import('express').Request<PathParams>;

const ENTITY = { entity: { type: 'string', description: "The entity's path (business-partner, currency, dms-category)." } } as const;
const RUN = { ...ENTITY, id: { type: 'integer', format: 'int64', minimum: 1, description: "The run's id." } } as const;
const ROLES = 'Needs <entity>:read and <entity>:write in the tenant; a run of another tenant is 404 SVC-SYS-4001.';

/**
 * The upload of a file to import (docs/interface.md#import): multipart, read by the gateway itself
 * before the JSON body parser, and handed to the entity's service in parts.
 */
export const IMPORT_UPLOAD_ROUTES = {
  uploadImport: {
    method: 'post',
    path: '/api/import/:entity',
    doc: (sources) => ({
      tag: 'import',
      summary: 'Upload a CSV or XLSX file to import into an entity',
      description:
        `Parts: file (CSV in UTF-8, delimiter , ; or TAB; or XLSX: its first sheet), crProcessId. ${ROLES} ` +
        'Answers the run in PREVIEW with its header, its first 20 rows and the proposed mapping (by field name, English or Turkish label). ' +
        'Over IMPORT_MAX_BYTES: 413 SVC-SYS-3001; a file that is not UTF-8, a line over IMPORT_MAX_LINE_BYTES or a zip bomb: 400 SVC-SYS-2001.',
      pathParams: ENTITY,
      body: { schema: sources.ref('ImportUpload'), contentType: 'multipart/form-data' },
      ok: { status: 201, description: 'The run, in PREVIEW (the body is an ImportRun).' },
      errors: [404, 413],
    }),
  },
} as const satisfies OperationTable;

/** The routes of an import run once uploaded (docs/interface.md#import). */
export const IMPORT_ROUTES = {
  listImports: {
    method: 'get',
    path: '/api/import/:entity',
    query: { crProcessId: 'id', page: 'int', size: 'int' },
    doc: (sources) => ({
      tag: 'import',
      summary: "The import runs of a tenant's entity, newest first",
      description: `Needs <entity>:read. crProcessId required (a user who is not a super user: its own tenant).`,
      pathParams: ENTITY,
      ok: { status: 200, schema: sources.ref('ImportRunPage'), description: 'A page of runs.' },
      errors: [404],
    }),
  },
  getImport: {
    method: 'get',
    path: '/api/import/:entity/:id',
    doc: (sources) => ({
      tag: 'import',
      summary: 'An import run: its state, counts, first rows and first errors',
      description: `Needs <entity>:read. Errors in the caller's language.`,
      pathParams: RUN,
      ok: { status: 200, schema: sources.ref('ImportRun'), description: 'The run.' },
      errors: [404],
    }),
  },
  updateImport: {
    method: 'put',
    path: '/api/import/:entity/:id',
    doc: (sources) => ({
      tag: 'import',
      summary: "Set an import's mapping and options",
      description: `${ROLES} In PREVIEW or CHECKED (then PREVIEW again); else 409 SVC-SYS-4004.`,
      pathParams: RUN,
      body: { schema: sources.ref('ImportUpdate') },
      ok: { status: 200, schema: sources.ref('ImportRun'), description: 'The run.' },
      errors: [404, 409],
    }),
  },
  checkImport: {
    method: 'post',
    path: '/api/import/:entity/:id/check',
    doc: (sources) => ({
      tag: 'import',
      summary: 'Start the dry run of an import',
      description: `${ROLES} Every row is checked as the import would write it, nothing kept: the run goes CHECKING, then CHECKED with its errors.`,
      pathParams: RUN,
      ok: { status: 200, schema: sources.ref('ImportRun'), description: 'The run, CHECKING.' },
      errors: [404, 409],
    }),
  },
  startImport: {
    method: 'post',
    path: '/api/import/:entity/:id/start',
    doc: (sources) => ({
      tag: 'import',
      summary: 'Start an import',
      description: `${ROLES} From PREVIEW or CHECKED: QUEUED, RUNNING, then DONE, FAILED or CANCELLED. Each row is written in its own transaction.`,
      pathParams: RUN,
      ok: { status: 200, schema: sources.ref('ImportRun'), description: 'The run, QUEUED.' },
      errors: [404, 409],
    }),
  },
  cancelImport: {
    method: 'post',
    path: '/api/import/:entity/:id/cancel',
    doc: (sources) => ({
      tag: 'import',
      summary: 'Cancel an import or its dry run',
      description: `${ROLES} A run under way stops at its next chunk (CANCELLED); the rows written stay.`,
      pathParams: RUN,
      ok: { status: 200, schema: sources.ref('ImportRun'), description: 'The run.' },
      errors: [404, 409],
    }),
  },
  importErrorReport: {
    method: 'get',
    path: '/api/import/:entity/:id/errors',
    doc: () => ({
      tag: 'import',
      summary: "An import's errors as CSV",
      description:
        "Needs <entity>:read. Row, column, field, code, message, in the caller's language; a cell a spreadsheet would read as a formula starts with '.",
      pathParams: RUN,
      ok: { status: 200, schema: { type: 'string' }, contentType: 'text/csv', description: 'The error report.' },
      errors: [404],
    }),
  },
} as const satisfies OperationTable;

/** What the gRPC service takes in one message: a file is sent in parts under the services' 4 MiB. */
const PART_BYTES = 3 * 1024 * 1024;

/** The import routes: the upload before the JSON body parser, the rest after it. */
export function importRoutes(resources: readonly Resource[], backends: Backends): { upload: RouteGroup; runs: RouteGroup } {
  const byPath = new Map(resources.map((resource) => [resource.path, resource.service]));
  const limits = importLimitsOf();
  const serviceOf = (req: Request): ServiceName => {
    const service = byPath.get(req.params.entity ?? '');
    // an entity no service imports into has no runs: 404 as for a run that does not exist
    if (!service) throw notFound('import');
    return service;
  };
  const call = <Req, Res>(
    req: Request,
    res: Response,
    method: { path: string; requestSerialize: (value: Req) => Buffer; responseDeserialize: (bytes: Buffer) => Res },
    request: Req,
    metadata?: Metadata,
  ) => backends.call(serviceOf(req), method as never, request as never, metadata ?? userMetadata(req, res)) as Promise<Res>;
  const runOf = (req: Request) => ({ entity: req.params.entity ?? '', id: idParam(req.params.id) });
  return {
    upload: routerFor(IMPORT_UPLOAD_ROUTES, {
      uploadImport: async (req, res) => {
        serviceOf(req);
        const metadata = userMetadata(req, res);
        const upload = await readImportUpload(req, limits.maxBytes);
        const entity = req.params.entity ?? '';
        let run: ImportRun | undefined;
        for (let at = 0; at === 0 || at < upload.bytes.length; at += PART_BYTES) {
          const content = upload.bytes.subarray(at, at + PART_BYTES);
          run = await call(
            req,
            res,
            ImportServiceService.uploadImportPart,
            {
              entity,
              crProcessId: upload.crProcessId,
              id: run?.id,
              fileName: upload.fileName,
              content,
              last: at + PART_BYTES >= upload.bytes.length,
            },
            metadata,
          );
        }
        res.status(201);
        sendJson(res, runJson(run as ImportRun));
      },
    }),
    runs: routerFor(IMPORT_ROUTES, {
      listImports: async (req, res, query) => {
        if (query.crProcessId === undefined) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
        const page = await call(req, res, ImportServiceService.listImports, {
          entity: req.params.entity ?? '',
          crProcessId: query.crProcessId,
          page: query.page,
          size: query.size,
        });
        sendJson(res, { content: page.content.map(runJson), ...page.meta });
      },
      getImport: async (req, res) => sendJson(res, runJson(await call(req, res, ImportServiceService.getImport, runOf(req)))),
      updateImport: async (req, res) => {
        serviceOf(req);
        const body = updateOf(req.body);
        sendJson(res, runJson(await call(req, res, ImportServiceService.updateImport, { ...runOf(req), ...body })));
      },
      checkImport: async (req, res) => sendJson(res, runJson(await call(req, res, ImportServiceService.checkImport, runOf(req)))),
      startImport: async (req, res) => sendJson(res, runJson(await call(req, res, ImportServiceService.startImport, runOf(req)))),
      cancelImport: async (req, res) => sendJson(res, runJson(await call(req, res, ImportServiceService.cancelImport, runOf(req)))),
      importErrorReport: async (req, res) => {
        const report = await call(req, res, ImportServiceService.importErrorReport, runOf(req));
        // the tenant's own cells inside: an attachment, never sniffed into a page of this origin, never cached
        res.type('text/csv; charset=utf-8').setHeader('Content-Disposition', `attachment; filename="import-${runOf(req).id}-errors.csv"`);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Cache-Control', 'no-store');
        res.send(report.csv);
      },
    }),
  };
}

/** The body of PUT /api/import/{entity}/{id}: `mapping` (one entry per column: a field or null) and `updateByCode`. */
function updateOf(body: unknown): { mapping: string[]; updateByCode?: boolean } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new DomainError('SVC-SYS-2001', 'body.notObject');
  const { mapping, updateByCode, ...rest } = body as Record<string, unknown>;
  const [unknown] = Object.keys(rest);
  if (unknown !== undefined) throw invalidField(unknown.slice(0, 64), 'field.unknown');
  if (!Array.isArray(mapping) || mapping.length > 1000 || !mapping.every((field) => field === null || (typeof field === 'string' && field.length <= 64))) {
    throw invalidField('mapping', 'field.type', { type: 'array of field names or null' });
  }
  if (updateByCode !== undefined && typeof updateByCode !== 'boolean') throw invalidField('updateByCode', 'field.type', { type: 'boolean' });
  return { mapping: mapping.map((field: string | null) => field ?? ''), ...(updateByCode !== undefined && { updateByCode }) };
}

/** A run as JSON: every field present, null where unset; a column not imported maps to null. */
export function runJson(run: ImportRun) {
  return {
    id: run.id,
    crProcessId: run.crProcessId,
    entity: run.entity,
    fileName: run.fileName,
    fileSize: run.fileSize,
    format: run.format,
    status: run.status,
    mode: run.mode ?? null,
    header: run.header,
    mapping: run.mapping.map((field) => (field === '' ? null : field)),
    updateByCode: run.updateByCode,
    preview: run.preview.map((row) => row.cells),
    totalRows: run.totalRows,
    processed: run.processed,
    created: run.created,
    updated: run.updated,
    unchanged: run.unchanged,
    failed: run.failed,
    errors: run.errors.map(errorJson),
    message: run.message ?? null,
    createdBy: run.createdBy,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    finishedAt: run.finishedAt ?? null,
  };
}

function errorJson(error: ImportRowError) {
  return { row: error.row, column: error.column ?? null, field: error.field ?? null, code: error.code, message: error.message };
}

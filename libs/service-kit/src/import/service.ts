/**
 * Serves `platform.common.v1.ImportService` for a service's own entities
 * (docs/interface.md#import): uploads a file in parts into a run, shows the run, sets its mapping
 * and options, hands its dry run and its import to the worker (run-job.ts) and asks them to stop,
 * and gives its errors as CSV. Uploading, changing and starting need `<entity>:write` and
 * `<entity>:read`, reading `<entity>:read`; a run is its tenant's (row-level security and the
 * caller's scope): another tenant's is 404, as a record would be.
 */
import type { Server } from '@grpc/grpc-js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { stringify } from 'csv-stringify/sync';
import { importLimitsOf } from '@platform/kit/config/import-limits.ts';
import { DomainError, notFound } from '@platform/kit/errors/domain-error.ts';
import {
  ImportServiceService,
  type ImportRun,
  type ListImportsRequest,
  type ListImportsResponse,
  type UploadImportPartRequest,
  type UpdateImportRequest,
} from '@platform/kit/gen/platform/common/v1/import.ts';
import { translate, type Language, type MessageKey } from '@platform/kit/i18n/messages.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';
import { actorOf, assertTenant, authorize, tenantScope, type CallContext } from '../auth/caller.ts';
import { pageBounds, pageMeta } from '../crud/list-query.ts';
import type { Row } from '../db/entity-schema.ts';
import { implement, type Handler, type Runtime } from '../grpc/server.ts';
import type { JobSender } from '../jobs/job-sender.ts';
import { renderError } from './engine.ts';
import { mappingProblem, proposeMapping } from './mapping.ts';
import { formatOf, parseFile } from './parse.ts';
import { importJobName } from './run-job.ts';
import { IMPORT_ERROR_ENTITY, IMPORT_RUN_ENTITY, type ImportState } from './run-entity.ts';

const PREVIEW_ROWS = 20;
const ERRORS_SHOWN = 100;

/**
 * @example
 * registerImport(server, runtime, bpmResources, 'bpm', jobSender(databaseUrlOf()));
 */
export function registerImport(server: Server, runtime: Runtime, resources: readonly Resource[], service: 'core' | 'bpm' | 'dms', sender: JobSender): void {
  server.addService(ImportServiceService, implement(runtime, importHandlers(resources, service, sender)));
}

export function importHandlers(resources: readonly Resource[], service: string, sender: JobSender): Record<string, Handler<never, unknown>> {
  const byPath = new Map(resources.map((resource) => [resource.path, resource]));
  const roles = new Set(resources.flatMap((resource) => [`${resource.path}:read`, `${resource.path}:write`]));
  const limits = importLimitsOf();
  /** The entity, when this service imports it, and the caller's roles for it checked. */
  const entity = (path: string, ctx: CallContext, write: boolean): Resource => {
    const resource = byPath.get(path);
    if (!resource || resource.operations === 'read-only' || resource.operations === 'no-create') {
      throw notFound('import');
    }
    authorize(ctx, `${path}:read`);
    if (write) authorize(ctx, `${path}:write`);
    return resource;
  };
  const send = async (run: Row, status: ImportState, em: EntityManager): Promise<void> => {
    Object.assign(run, {
      status,
      processed: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      failed: 0,
      cancelRequested: false,
      messageKey: null,
      messageParams: null,
    });
    Object.assign(run, { mode: status === 'CHECKING' ? 'check' : 'import', updatedAt: new Date() });
    await em.nativeDelete(IMPORT_ERROR_ENTITY as never, { runId: run.id } as never);
    await em.flush();
    await sender.send(importJobName(service), { runId: run.id });
  };
  const handlers = {
    uploadImportPart: async (request: UploadImportPartRequest, ctx: CallContext): Promise<ImportRun> => {
      const resource = entity(request.entity, ctx, true);
      const em = ctx.em;
      let run: Row;
      if (request.id === undefined) {
        assertTenant(ctx, request.crProcessId);
        if (request.content.length > limits.maxBytes) throw new DomainError('SVC-SYS-3001', 'upload.tooLarge');
        const now = new Date();
        run = em.create(
          IMPORT_RUN_ENTITY as never,
          {
            crProcessId: request.crProcessId,
            entity: resource.path,
            fileName: (request.fileName || 'import').slice(0, 255),
            fileSize: request.content.length,
            format: 'csv',
            status: 'UPLOADING',
            file: Buffer.from(request.content),
            header: [],
            mapping: [],
            createdBy: actorOf(ctx),
            createdAt: now,
            updatedAt: now,
          } as never,
        ) as Row;
        await em.flush();
      } else {
        run = await findRun(em, ctx, resource, request.id, true);
        if (run.status !== 'UPLOADING' || run.createdBy !== actorOf(ctx)) throw stateError(run);
        const file = Buffer.concat([run.file as Buffer, request.content]);
        if (file.length > limits.maxBytes) throw new DomainError('SVC-SYS-3001', 'upload.tooLarge');
        Object.assign(run, { file, fileSize: file.length, updatedAt: new Date() });
        await em.flush();
      }
      if (!request.last) return runMessage(run, ctx.lang);
      const bytes = run.file as Buffer;
      const parsed = await parseFile(bytes, limits);
      Object.assign(run, {
        format: formatOf(bytes),
        header: parsed.header,
        mapping: proposeMapping(resource, parsed.header),
        totalRows: parsed.rows.length,
        status: 'PREVIEW',
        updatedAt: new Date(),
      });
      await em.flush();
      return { ...runMessage(run, ctx.lang), preview: previewOf(parsed.rows) };
    },
    getImport: async (request: { entity: string; id: number }, ctx: CallContext): Promise<ImportRun> => {
      const resource = entity(request.entity, ctx, false);
      const status = (await findRun(ctx.em, ctx, resource, request.id)).status;
      const run =
        status === 'PREVIEW' || status === 'CHECKED'
          ? await findRun(ctx.em, ctx, resource, request.id, true)
          : await findRun(ctx.em, ctx, resource, request.id);
      const errors = await ctx.em.find(IMPORT_ERROR_ENTITY as never, { runId: run.id } as never, {
        orderBy: { rowNumber: 'asc', id: 'asc' } as never,
        limit: ERRORS_SHOWN,
      });
      const file = run.file as Buffer | null;
      // the first rows while the mapping is being chosen; a run under way is polled, and not read again for it
      const preview = file && (run.status === 'PREVIEW' || run.status === 'CHECKED') ? previewOf((await parseFile(file, limits, PREVIEW_ROWS)).rows) : [];
      return { ...runMessage(run, ctx.lang), preview, errors: (errors as Row[]).map((error) => errorMessage(error, ctx.lang)) };
    },
    updateImport: async (request: UpdateImportRequest, ctx: CallContext): Promise<ImportRun> => {
      const resource = entity(request.entity, ctx, true);
      const run = await findRun(ctx.em, ctx, resource, request.id);
      if (run.status !== 'PREVIEW' && run.status !== 'CHECKED') throw stateError(run);
      const mapping = request.mapping.map((field) => (field === '' ? null : field));
      const problem = mappingProblem(resource, (run.header as string[]).length, mapping);
      if (problem !== undefined) throw new DomainError('SVC-SYS-2001', 'import.mapping', { reason: problem, field: 'mapping' });
      Object.assign(run, { mapping, status: 'PREVIEW', updatedAt: new Date() });
      if (request.updateByCode !== undefined) run.updateByCode = request.updateByCode;
      await ctx.em.flush();
      return runMessage(run, ctx.lang);
    },
    checkImport: async (request: { entity: string; id: number }, ctx: CallContext): Promise<ImportRun> => {
      const resource = entity(request.entity, ctx, true);
      const run = await findRun(ctx.em, ctx, resource, request.id);
      if (run.status !== 'PREVIEW' && run.status !== 'CHECKED') throw stateError(run);
      await send(run, 'CHECKING', ctx.em);
      return runMessage(run, ctx.lang);
    },
    startImport: async (request: { entity: string; id: number }, ctx: CallContext): Promise<ImportRun> => {
      const resource = entity(request.entity, ctx, true);
      const run = await findRun(ctx.em, ctx, resource, request.id);
      if (run.status !== 'PREVIEW' && run.status !== 'CHECKED') throw stateError(run);
      await send(run, 'QUEUED', ctx.em);
      return runMessage(run, ctx.lang);
    },
    cancelImport: async (request: { entity: string; id: number }, ctx: CallContext): Promise<ImportRun> => {
      const resource = entity(request.entity, ctx, true);
      const run = await findRun(ctx.em, ctx, resource, request.id);
      if (['CHECKING', 'QUEUED', 'RUNNING'].includes(String(run.status))) run.cancelRequested = true;
      else if (['UPLOADING', 'PREVIEW', 'CHECKED'].includes(String(run.status)))
        Object.assign(run, { status: 'CANCELLED', file: null, finishedAt: new Date() });
      else throw stateError(run);
      run.updatedAt = new Date();
      await ctx.em.flush();
      return runMessage(run, ctx.lang);
    },
    importErrorReport: async (request: { entity: string; id: number }, ctx: CallContext): Promise<{ csv: string }> => {
      const resource = entity(request.entity, ctx, false);
      const run = await findRun(ctx.em, ctx, resource, request.id);
      const errors = (await ctx.em.find(IMPORT_ERROR_ENTITY as never, { runId: run.id } as never, {
        orderBy: { rowNumber: 'asc', id: 'asc' } as never,
      })) as Row[];
      return { csv: errorReport(errors, ctx.lang) };
    },
    listImports: async (request: ListImportsRequest, ctx: CallContext): Promise<ListImportsResponse> => {
      const resource = entity(request.entity, ctx, false);
      assertTenant(ctx, request.crProcessId);
      const { page, size } = pageBounds(request.page, request.size);
      const where = { crProcessId: request.crProcessId, entity: resource.path };
      const [runs, total] = await ctx.em.findAndCount(IMPORT_RUN_ENTITY as never, where as never, {
        orderBy: { id: 'desc' } as never,
        limit: size,
        offset: page * size,
      });
      return { content: (runs as Row[]).map((run) => runMessage(run, ctx.lang)), meta: pageMeta(page, size, total, runs.length) };
    },
  };
  const all: Record<string, Handler<never, unknown>> = {};
  for (const [name, handler] of Object.entries(handlers)) all[name] = Object.assign(handler, { roles }) as Handler<never, unknown>;
  return all;
}

/** A run of the caller's tenant (404 for another's, or one of another entity). */
async function findRun(em: EntityManager, ctx: CallContext, resource: Resource, id: number, withFile = false): Promise<Row> {
  const scope = tenantScope(ctx);
  const where = { id, entity: resource.path, ...(scope === undefined ? {} : { crProcessId: scope }) };
  const run = (await em.findOne(IMPORT_RUN_ENTITY as never, where as never, withFile ? { populate: ['file'] as never } : {})) as Row | null;
  if (!run) throw notFound('import');
  return run;
}

function stateError(run: Row): DomainError {
  return new DomainError('SVC-SYS-4004', 'import.state', { status: String(run.status) });
}

function previewOf(rows: readonly (readonly unknown[])[]): { cells: string[] }[] {
  return rows.slice(0, PREVIEW_ROWS).map((row) => ({
    cells: row.map((cell) => (cell === null || cell === undefined ? '' : cell instanceof Date ? cell.toISOString() : String(cell))),
  }));
}

function iso(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

function runMessage(run: Row, lang: Language): ImportRun {
  return {
    id: Number(run.id),
    crProcessId: Number(run.crProcessId),
    entity: String(run.entity),
    fileName: String(run.fileName),
    fileSize: Number(run.fileSize),
    format: String(run.format),
    status: String(run.status),
    header: run.header as string[],
    mapping: (run.mapping as (string | null)[]).map((field) => field ?? ''),
    updateByCode: Boolean(run.updateByCode),
    preview: [],
    totalRows: Number(run.totalRows),
    processed: Number(run.processed),
    created: Number(run.created),
    updated: Number(run.updated),
    unchanged: Number(run.unchanged),
    failed: Number(run.failed),
    errors: [],
    message: run.messageKey ? translate(lang, run.messageKey as MessageKey, (run.messageParams ?? {}) as Record<string, string>) : undefined,
    createdBy: String(run.createdBy),
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
    finishedAt: run.finishedAt ? iso(run.finishedAt) : undefined,
    mode: run.mode ? String(run.mode) : undefined,
  };
}

function errorMessage(error: Row, lang: Language) {
  return {
    row: Number(error.rowNumber),
    column: error.columnName ? String(error.columnName) : undefined,
    field: error.field ? String(error.field) : undefined,
    code: String(error.code),
    message: renderError({ messageKey: String(error.messageKey), messageParams: error.messageParams as Record<string, string> }, lang),
  };
}

const HEADINGS: Record<Language, string[]> = {
  en: ['Row', 'Column', 'Field', 'Code', 'Message'],
  tr: ['Satır', 'Sütun', 'Alan', 'Kod', 'Mesaj'],
};

/** The errors as CSV in `lang`; a cell that a spreadsheet would read as a formula starts with `'`. */
function errorReport(errors: readonly Row[], lang: Language): string {
  const rows = errors.map((error) => {
    const shown = errorMessage(error, lang);
    return [String(shown.row), shown.column ?? '', shown.field ?? '', shown.code, shown.message].map(neutralised);
  });
  return stringify([HEADINGS[lang], ...rows]);
}

function neutralised(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

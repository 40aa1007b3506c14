import type { Metadata } from '@grpc/grpc-js';
import type { Request, Response } from 'express';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import type { PageMeta, PageRequest } from '@platform/kit/gen/platform/common/v1/common.ts';
import { crudMethods, type RecordMessage } from '@platform/kit/resource/crud-methods.ts';
import { keyOf, type Resource } from '@platform/kit/resource/resource.ts';
import type { Backends } from '../backends.ts';
import { languageOf } from '../http/context.ts';
import { asObject, pageRequestFromJson, type Json } from '../http/record-json.ts';
import { exportColumns } from './columns.ts';
import { csvWriter, EXPORT_FORMATS, xlsxWriter, type ExportFormat, type ExportWriter } from './writers.ts';

/** Records per list call of an export: the list's largest page. */
export const EXPORT_PAGE_SIZE = 500;
/** Most record keys an export of a selection names. */
export const MAX_EXPORT_IDS = 500;

/** An export's request: the list's PageRequest without paging, the columns, and the keys of a selection. */
export interface ExportRequest {
  page: PageRequest;
  columns: string[] | undefined;
}

/**
 * An export's body (docs/interface.md#export): the list's PageRequest (filter, sorts, searchTerm)
 * without `page`, `size` or `after` (an export walks every page: 400 SVC-SYS-2001 naming the field),
 * `columns` (field names) and `ids` (1 to 500 record keys: the records of a selection, sent to the
 * list as the filter `<key>In`, so they come in the list's order and within its tenant).
 */
export function exportRequestFromJson(resource: Resource, body: unknown): ExportRequest {
  const { columns, ids, ...rest } = asObject(body);
  for (const name of ['page', 'size', 'after']) if (Object.hasOwn(rest, name)) throw invalidField(name, 'export.paging');
  const page: PageRequest = pageRequestFromJson(rest);
  if (ids !== undefined && ids !== null) {
    page.filter = { ...page.filter, [`${keyOf(resource)}In`]: keysOf(resource, ids) };
  }
  return { page, columns: columns === undefined || columns === null ? undefined : columnNames(columns) };
}

function columnNames(value: Json): string[] {
  if (!Array.isArray(value)) throw invalidField('columns', 'field.type', { type: 'array' });
  if (value.length === 0) throw invalidField('columns', 'field.type', { type: 'array' });
  return value.map((item, index) => {
    if (typeof item !== 'string') throw invalidField(`columns[${index}]`, 'field.type', { type: 'string' });
    return item;
  });
}

/** The record keys of a selection: positive ids (or, for a resource keyed otherwise, texts up to 255 characters). */
function keysOf(resource: Resource, value: Json): (number | string)[] {
  if (!Array.isArray(value)) throw invalidField('ids', 'field.type', { type: 'array' });
  if (value.length < 1 || value.length > MAX_EXPORT_IDS) throw invalidField('ids', 'export.ids', { max: String(MAX_EXPORT_IDS) });
  const byId = keyOf(resource) === 'id';
  return value.map((item, index) => {
    const valid = byId ? typeof item === 'number' && Number.isSafeInteger(item) && item > 0 : typeof item === 'string' && item !== '' && item.length <= 255;
    if (!valid) throw invalidField(`ids[${index}]`, 'field.type', { type: byId ? 'integer' : 'string' });
    return item as number | string;
  });
}

/** `?format=`: csv (the default) or xlsx, else 400 SVC-SYS-2001 naming the parameter. */
export function exportFormatOf(raw: string | undefined): ExportFormat {
  if (raw === undefined || raw === 'csv') return 'csv';
  if (raw === 'xlsx') return 'xlsx';
  throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: 'format' });
}

/** `business-partner-2026-11-29T091500Z.csv`: the path and the moment (UTC) the export began. */
export function exportFileName(resource: Resource, format: ExportFormat, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '');
  return `${resource.path}-${stamp}.${EXPORT_FORMATS[format].extension}`;
}

/**
 * Answers an export (POST /api/{path}/export): walks the resource's list RPC in cursor pages of
 * 500 with the request's own user metadata, so every page is checked by the service for the
 * tenant and the roles as a list is, and writes each page as it comes while the next is read.
 *
 * Before the first byte (the first page read), a refusal is the usual error answer. Once the file
 * has begun, a failed page (a role taken away, a service gone) aborts the connection, so the client
 * sees a failed download rather than a file that looks complete, and the failure is logged. A client
 * that goes away stops the walk. `metadata` is the request's user metadata (routes/crud.ts userMetadata).
 */
export async function sendExport(req: Request, res: Response, resource: Resource, backends: Backends, format: ExportFormat, metadata: Metadata): Promise<void> {
  const list = crudMethods(resource).list;
  if (!list) throw new Error('an export of a resource without a list');
  const request = exportRequestFromJson(resource, req.body);
  const columns = exportColumns(resource, languageOf(req, res), request.columns);
  const read = (after: string) =>
    backends.call(resource.service, list, { page: { ...request.page, size: EXPORT_PAGE_SIZE, after } }, metadata.clone()) as Promise<{
      content: RecordMessage[];
      meta?: PageMeta;
    }>;

  // a client that goes away, from here on, stops the walk (its response closes before it finished)
  const left = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) left.abort();
  });
  let current = await read('');
  if (left.signal.aborted) {
    req.log.info({ path: resource.path, rows: 0 }, 'export ended: the client went away');
    return;
  }
  const { contentType } = EXPORT_FORMATS[format];
  res.status(200);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(resource, format)}"`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');

  const language = languageOf(req, res);
  const writer: ExportWriter = format === 'csv' ? csvWriter(res, columns, left.signal) : xlsxWriter(res, columns, resource.labels[language].other, left.signal);
  let rows = 0;
  try {
    for (;;) {
      const after = current.meta?.nextAfter;
      // the next page is read while this one is written
      const next = after ? read(after) : undefined;
      next?.catch(() => undefined);
      await writer.page(current.content as Record<string, unknown>[]);
      rows += current.content.length;
      if (!next || left.signal.aborted) break;
      current = await next;
    }
    if (!left.signal.aborted) await writer.end();
  } catch (error) {
    if (!left.signal.aborted) {
      req.log.error({ err: error, path: resource.path, rows }, 'export failed after it began: connection aborted');
      res.destroy();
      return;
    }
  }
  // the wait for a drain, or the next page, saw the client go: no further page is read
  if (left.signal.aborted) req.log.info({ path: resource.path, rows }, 'export ended: the client went away');
}

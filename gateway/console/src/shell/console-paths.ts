/**
 * The paths the typed client (api.ts) knows beyond the API document's own: the console's manifest,
 * and the CRUD set of any resource the manifest names. The document spells that set once per entity
 * (`/api/branch/list`, `/api/branch/{key}`, …); the console's generic pages reach a resource by the
 * manifest's `path`, so here the set is written once with `{resource}` for it, and its bodies and
 * answers are the document's shapes common to every entity (docs/interface.md#crud, #lists).
 */
import type { BranchBulkResponse, BranchPage, BranchPageRequest, HistoryEventPage, Statistics } from '@platform/client/schema.d.ts';
import type { ConsoleManifest } from '@platform/contracts/console/manifest.ts';

/** A record of a resource the console knows only by its manifest: the fields are the manifest's. */
export type Row = Record<string, unknown>;

/** The body of `POST /api/{resource}/list`: every entity's PageRequest, with the entity's filter fields left open. */
export type PageRequest = Omit<BranchPageRequest, 'filter' | 'sorts'> & {
  sorts?: { field: string; direction: 'ASC' | 'DESC' }[];
  filter: Record<string, unknown>;
};

/** The body of `POST /api/{resource}/export`: the list's PageRequest without paging, and the keys of a selection. */
export type ExportRequest = Omit<PageRequest, 'page' | 'size'> & { ids?: (string | number)[]; columns?: string[] };

/** A PageResponse (docs/interface.md#lists): every list answers this shape, the API document names it once per entity. */
export type Page<T> = Omit<BranchPage, 'content'> & { content: T[] };

/** An item of `POST /api/{resource}/bulk` (docs/interface.md#bulk-changes), with the record's fields left open. */
export type BulkItem =
  { action: 'create'; record: Row } | { action: 'update'; key: string | number; record: Row } | { action: 'delete'; key: string | number; version?: number };

/** A result of a bulk item, with the record's fields left open. */
export type BulkResult = Omit<BranchBulkResponse['results'][number], 'record'> & { record?: Row };

/** The answer of `POST /api/{resource}/bulk`: every entity's bulk answers this shape, the document names it once per entity. */
export type BulkResponse = Omit<BranchBulkResponse, 'results'> & { results: BulkResult[] };

/** A read in the shape openapi-typescript writes operations, for the client's typing. */
interface Read<Parameters, Answer> {
  parameters: Parameters & { header?: Record<string, string> };
  requestBody?: never;
  responses: { 200: { content: { 'application/json': Answer } } };
}

/** A write: a read with a JSON body. */
interface Write<Parameters, Body, Answer> extends Omit<Read<Parameters, Answer>, 'requestBody'> {
  requestBody: { content: { 'application/json': Body } };
}

/** `T` with its readonly arrays plain: the client's answer types map plain arrays only (the manifest's are readonly). */
type Plain<T> = T extends readonly (infer E)[] ? Plain<E>[] : T extends object ? { -readonly [K in keyof T]: Plain<T[K]> } : T;

type ResourceParameter = { path: { resource: string } };
type RecordParameters = { path: { resource: string; key: string | number } };

export interface ConsolePaths {
  /** The manifest of resources (gateway/src/console/manifest.ts). */
  '/console/resources.json': { get: Read<{ query?: never }, Plain<ConsoleManifest>> };
  '/api/{resource}/list': { post: Write<ResourceParameter, PageRequest, Page<Row>> };
  '/api/{resource}': { post: Write<ResourceParameter, Row, Row> };
  '/api/{resource}/export': {
    post: {
      parameters: ResourceParameter & { query?: { format?: 'csv' | 'xlsx' }; header?: Record<string, string> };
      requestBody: { content: { 'application/json': ExportRequest } };
      responses: { 200: { content: { 'text/csv': Blob } } };
    };
  };
  '/api/{resource}/{key}': {
    get: Read<RecordParameters, Row>;
    put: Write<RecordParameters, Row, Row>;
    delete: Read<RecordParameters, undefined>;
  };
  '/api/{resource}/{key}/history': { get: Read<RecordParameters & { query?: { page?: number; size?: number } }, HistoryEventPage> };
  '/api/{resource}/bulk': { post: Write<ResourceParameter, { items: BulkItem[] }, BulkResponse> };
  '/api/{resource}/stats': { get: Read<ResourceParameter & { query?: { crProcessId?: number } }, Statistics> };
}

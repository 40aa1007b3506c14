import type { HeaderObject } from 'openapi3-ts/oas31';
import type { Resource } from '@platform/kit/resource/resource.ts';
import { crudMethods } from '@platform/kit/resource/crud-methods.ts';
import { keyOf } from '@platform/kit/resource/resource.ts';
import type { CrudRouteTable } from '../routes/crud.ts';
import { REPLAYED } from '../routes/replayed-header.ts';
import type { OperationDoc } from './operation.ts';
import type { ProtoDocs } from './proto-docs.ts';
import { bulkSchemaNames } from './bulk-schemas.ts';
import { keySchema, schemaNames } from './record-schemas.ts';
import { MAX_BULK_ITEMS } from '@platform/contracts/bulk.ts';
import { exportRequestName, pageRequestName, pageResponseName, ref } from './shared-schemas.ts';
import { EXPORT_FORMATS } from '../export/writers.ts';

/** The ETag of a record answer (docs/interface.md#conditional-requests). */
const ETAG: Record<string, HeaderObject> = {
  ETag: { description: 'The record\'s entity tag: its version, weak (W/"3").', schema: { type: 'string', pattern: '^W/"(0|[1-9][0-9]*)"$' } },
};
const IF_NONE_MATCH = { $ref: '#/components/parameters/IfNoneMatch' };
const IF_MATCH = { $ref: '#/components/parameters/IfMatch' };
const IDEMPOTENCY_KEY = { $ref: '#/components/parameters/IdempotencyKey' };

/**
 * The words and bodies of one resource's CRUD operations (docs/interface.md#crud), keyed like
 * its route table (routes/crud.ts); the descriptions are the proto comments of the RPCs they call.
 */
export function crudOperationDocs(resource: Resource, docs: ProtoDocs): Record<keyof CrudRouteTable, OperationDoc> {
  const methods = crudMethods(resource);
  const about = (operation: keyof typeof methods) => {
    const method = methods[operation];
    return method && docs.rpc(method);
  };
  const names = schemaNames(resource);
  const record = ref(names.record);
  const tag = resource.path;
  const key = { key: { ...keySchema(resource), description: keyOf(resource) === 'id' ? "The record's id." : `The record's ${keyOf(resource)}.` } };
  return {
    stats: {
      tag,
      summary: `Count ${resource.path} records by status`,
      description: `${about('stats') ?? ''} The caller's tenant; a super user's cover every tenant unless crProcessId narrows them.`.trim(),
      ok: { status: 200, schema: ref('Statistics'), description: 'The statistics.' },
    },
    list: {
      tag,
      summary: `List ${resource.path} records a page at a time`,
      description: about('list'),
      body: { schema: ref(pageRequestName(resource)) },
      ok: { status: 200, schema: ref(pageResponseName(resource)), description: 'One page of records.' },
    },
    export: {
      tag,
      summary: `Export ${resource.path} records as CSV or XLSX`,
      description:
        'Every record of the list the body describes (its filter, sorts and searchTerm: the tenant and roles are checked as for the list, on every page), ' +
        "in the list's order, as one file: `format=csv` (the default: RFC 4180, UTF-8 with a byte order mark, CRLF) or `format=xlsx`; another format is 400 SVC-SYS-2001. Headers and enum values in the caller's language " +
        "(Accept-Language, else the login's), statuses as Active/Passive, reference ids as ids, dates ISO 8601 (datetimes in UTC). A text cell beginning with =, +, -, @, TAB or CR " +
        'gets a leading single quote (formula injection). `columns` chooses the fields (default: every one), `ids` the records of a selection (1 to 500 keys). ' +
        'An error before the file begins is the error body; one after it began aborts the connection, so the download fails rather than looking complete.',
      body: { schema: ref(exportRequestName(resource)) },
      ok: {
        status: 200,
        schema: { type: 'string', format: 'binary' },
        contentType: 'text/csv',
        alsoContentTypes: [EXPORT_FORMATS.xlsx.contentType],
        description: 'The file, streamed (Content-Disposition: attachment).',
        headers: {
          'Content-Disposition': { description: 'attachment; filename="<path>-<UTC date-time>.csv" (or .xlsx).', schema: { type: 'string' } },
        },
      },
    },
    create: {
      tag,
      summary: `Create a ${resource.path}`,
      description: about('create'),
      headers: [IDEMPOTENCY_KEY],
      body: { schema: ref(names.create) },
      ok: {
        status: 200,
        schema: record,
        description: 'The created record, version 0 (under an Idempotency-Key used before: the first answer).',
        headers: REPLAYED,
      },
      errors: [409, 422],
    },
    get: {
      tag,
      summary: `Get a ${resource.path}`,
      description: about('get'),
      pathParams: key,
      headers: [IF_NONE_MATCH],
      ok: { status: 200, schema: record, description: 'The record.', headers: ETAG },
      notModified: { description: "If-None-Match names the record's version: no body.", headers: ETAG },
    },
    update: {
      tag,
      summary: `Update a ${resource.path}`,
      description: about('update'),
      pathParams: key,
      headers: [IF_MATCH],
      body: { schema: ref(names.update) },
      ok: { status: 200, schema: record, description: 'The updated record, its version raised by 1.', headers: ETAG },
      errors: [409, 412],
    },
    delete: {
      tag,
      summary: `Delete a ${resource.path}`,
      description: about('delete'),
      pathParams: key,
      headers: [IF_MATCH],
      ok: { status: 204, description: 'Deleted.' },
      errors: [409, 412],
    },
    bulk: {
      tag,
      summary: `Create, update and delete ${resource.path} records in one request`,
      description:
        `1 to ${MAX_BULK_ITEMS} items, run in order one after another, each by the RPC its single route calls and checked exactly as alone; ` +
        'not all-or-nothing: 200 with a result per item. An item after one that failed with 401 or a 5xx is not run. ' +
        'The request counts as its number of items in the rate limit. An Idempotency-Key is ignored (docs/interface.md#bulk-changes).',
      body: { schema: ref(bulkSchemaNames(resource).request) },
      ok: { status: 200, schema: ref(bulkSchemaNames(resource).response), description: 'A result per item.' },
    },
  };
}

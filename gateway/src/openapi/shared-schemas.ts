import type { SchemaObject } from 'openapi3-ts/oas31';
import { keyOf, RANGE_KINDS, visibleScalars, type Resource } from '@platform/kit/resource/resource.ts';
import { matchFilters } from '@platform/kit/resource/list-view.ts';
import { throughFilters } from '@platform/kit/resource/through-filters.ts';
import { ERRORS } from '@platform/kit/errors/codes.ts';
import { MAX_AFTER_LENGTH } from '@platform/kit/resource/cursor.ts';
import { EXCEPTION_FIELDS, SESSION_FIELDS } from '../routes/sessions.ts';
import { fieldSchema, nullable } from './field-schema.ts';
import type { ProtoDocs } from './proto-docs.ts';
import { protoSchema } from './proto-schema.ts';
import { schemaNames } from './record-schemas.ts';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const COMMON = 'platform.common.v1';
const CORE = 'platform.core.v1';

/** What only a cursor page leaves out (`page`, the counts) or adds (`nextAfter`): docs/adr/0154-cursor-paging-over-the-sort.md. */
const OFFSET_ONLY = ['page', 'totalElements', 'totalPages'];

/**
 * The page arithmetic of a PageResponse (docs/interface.md#lists), described by the proto's PageMeta:
 * with `cursor`, a list that also serves cursor pages (an entity's), whose index and counts are
 * absent on those and which name the next page's `after`; without, a list of offset pages alone,
 * which always carries them.
 */
export function pageResponse(docs: ProtoDocs, items: SchemaObject, description: string, cursor = false): SchemaObject {
  const meta = protoSchema(docs, `${COMMON}.PageMeta`);
  // the gateway leaves an unset field of the meta out, never null
  const properties = Object.fromEntries(Object.entries(meta.properties ?? {}).map(([name, schema]) => [name, present(schema as SchemaObject)]));
  const { nextAfter, ...offsetProperties } = properties;
  const required = [...(meta.required ?? []), ...(cursor ? [] : OFFSET_ONLY)];
  return {
    type: 'object',
    description,
    properties: { content: { type: 'array', items, description: 'Page items.' }, ...offsetProperties, ...(cursor && nextAfter && { nextAfter }) },
    required: ['content', ...required],
  };
}

/** A schema without the null a proto `optional` widened it by. */
function present(schema: SchemaObject): SchemaObject {
  if (!Array.isArray(schema.type)) return schema;
  const types = schema.type.filter((type) => type !== 'null');
  return { ...schema, type: types.length === 1 ? types[0] : types };
}

/**
 * A PageRequest (docs/interface.md#lists) whose `filter` is `filter`; `page` and
 * `size` may be omitted (0 and 20). Descriptions come from the proto's PageRequest, but a filter
 * that describes itself keeps its own words: the proto's are the entity filter's (crProcessId
 * required, ranges), wrong for the operators' lists of sessions and exceptions. `after` is offered
 * where the list serves cursor pages: the entities' (docs/adr/0154-cursor-paging-over-the-sort.md).
 */
export function pageRequest(docs: ProtoDocs, filter: SchemaObject, filterRequired: boolean, cursor = false): SchemaObject {
  const about = (field: string) => docs.field(`${COMMON}.PageRequest`, field);
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      page: { type: ['integer', 'null'], format: 'int32', minimum: 0, default: 0, description: about('page') },
      size: { type: ['integer', 'null'], format: 'int32', minimum: 1, maximum: 500, default: 20, description: about('size') },
      searchTerm: { type: ['string', 'null'], maxLength: 255, description: about('searchTerm') },
      ...(cursor && { after: { type: ['string', 'null'], maxLength: MAX_AFTER_LENGTH, description: about('after') } }),
      sorts: {
        type: ['array', 'null'],
        description: about('sorts'),
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['field'],
          properties: {
            field: { type: 'string', description: docs.field(`${COMMON}.Sort`, 'field') },
            direction: { type: 'string', pattern: '^([aA][sS][cC]|[dD][eE][sS][cC])$', default: 'ASC', description: 'ASC or DESC, in any case.' },
          },
        },
      },
      filter: { description: about('filter'), ...filter },
    },
    required: filterRequired ? ['filter'] : [],
  };
}

/**
 * The list filter of a resource (docs/interface.md#lists): `crProcessId` required (missing: 400
 * SVC-SYS-2002), equality on each shown scalar field (`null` for "is null"), and `<field>From` /
 * `<field>To` on numbers, decimals and dates, `<field>Prefix` / `<field>Contains` on the text fields
 * the resource's list matches so (libs/kit/src/resource/list-view.ts), and its filters through a
 * reference (an accrual's `businessPartnerId`, through its contract; `resources` are the registry
 * they are resolved in). Any other key is 400 SVC-SYS-2001.
 */
export function resourceFilter(resource: Resource, resources: readonly Resource[]): SchemaObject {
  const properties: Record<string, SchemaObject> = {};
  for (const [name, spec] of visibleScalars(resource)) {
    const schema = fieldSchema({ ...spec, readOnly: false, writeOnly: false, default: undefined }, 'in');
    delete schema.readOnly;
    delete schema.writeOnly;
    properties[name] = name === 'crProcessId' ? schema : nullable(schema);
    if (RANGE_KINDS.has(spec.kind)) {
      properties[`${name}From`] = { ...schema, description: `Lowest ${name} (inclusive).` };
      properties[`${name}To`] = { ...schema, description: `Highest ${name} (inclusive).` };
    }
  }
  for (const [key, { field, match }] of matchFilters(resource.list)) {
    properties[key] = {
      type: 'string',
      maxLength: 255,
      description:
        match === 'prefix'
          ? `${field} starts with this text (case-insensitive, I, ı, İ and i alike; every character literal, % and _ included).`
          : `${field} contains this text (case-insensitive, I, ı, İ and i alike; every character literal, % and _ included).`,
    };
  }
  for (const { name, via, target, spec } of throughFilters(resource, resources)) {
    const schema = fieldSchema({ ...spec, readOnly: false, writeOnly: false, default: undefined }, 'in');
    delete schema.readOnly;
    delete schema.writeOnly;
    properties[name] = {
      ...schema,
      description: `The records whose ${via} names a ${target.path} of the same tenant whose ${name} is this value (another tenant's: none).`,
    };
  }
  return { type: 'object', additionalProperties: false, properties, required: ['crProcessId'] };
}

/** Schemas shared by many operations: errors, statistics, the auth bodies, sessions and exception entries. */
export function sharedSchemas(docs: ProtoDocs): Record<string, SchemaObject> {
  const codes = Object.keys(ERRORS);
  return {
    ErrorBody: {
      type: 'object',
      description: 'The error body of every refusal (docs/interface.md#errors), in en or tr after Accept-Language or the login language.',
      properties: {
        status: { const: 'ERROR' },
        error_code: { type: 'string', enum: codes, description: docs.field(`${COMMON}.ErrorDetail`, 'code') },
        message: { type: 'string', description: "What went wrong, in the caller's language; names the field or parameter where one is at fault." },
        refId: { type: 'string', format: 'uuid', description: 'On 5xx: the exception-log entry of the failure (GET /api/logs/exceptions/{refId}).' },
        field: { type: 'string', description: 'The field at fault, by its name in the body (`partnerCode`), when the refusal names one.' },
      },
      required: ['status', 'error_code', 'message'],
    },
    IpFilterRefusal: {
      type: 'object',
      description: "The IP filter's 403: the error body without error_code.",
      properties: { status: { const: 'ERROR' }, message: { type: 'string' } },
      required: ['status', 'message'],
    },
    RateLimitBody: {
      type: 'object',
      description: 'The rate-limit body of a 429 (docs/interface.md#rate-limit-body).',
      properties: {
        status: { const: 429 },
        error: { const: 'Too Many Requests' },
        message: { type: 'string', description: 'States the maximum requests per minute allowed.' },
        retryAfter: { const: 60, description: 'Seconds to wait, as the interface states (the Retry-After header has the real wait).' },
      },
      required: ['status', 'error', 'message', 'retryAfter'],
    },
    Statistics: protoSchema(docs, `${COMMON}.Statistics`),
    LoginRequest: {
      type: 'object',
      additionalProperties: false,
      description: docs.message(`${CORE}.LoginRequest`),
      properties: {
        userCode: { type: 'string', maxLength: 1000, description: docs.field(`${CORE}.LoginRequest`, 'userCode') },
        password: { type: 'string', maxLength: 1000, format: 'password', description: docs.field(`${CORE}.LoginRequest`, 'password') },
        languageCode: { type: 'string', enum: ['en', 'tr'], description: docs.field(`${CORE}.LoginRequest`, 'languageCode') },
        captchaToken: { type: ['string', 'null'], maxLength: 1000, description: docs.field(`${CORE}.LoginRequest`, 'captchaToken') },
        secondFactorCode: { type: 'string', pattern: '^[0-9]{6}$', description: docs.field(`${CORE}.LoginRequest`, 'secondFactorCode') },
      },
      required: ['userCode', 'password', 'languageCode'],
    },
    LoginResponse: withAuthFlags(
      protoSchema(docs, `${CORE}.LoginResponse`, { only: ['userCode', 'source', 'expiresAt', 'superUser', 'userProcess'], allPresent: true }),
      {
        token: { const: '', description: 'Always empty: the token is in the SVC_SESSION cookie.' },
      },
    ),
    Me: protoSchema(docs, `${CORE}.MeResponse`, { allPresent: true }),
    SwitchAccountRequest: requestOf(docs, `${CORE}.SwitchAccountRequest`),
    ChangePasswordRequest: requestOf(docs, `${CORE}.ChangePasswordRequest`),
    Session: protoSchema(docs, `${CORE}.Session`, { only: SESSION_FIELDS, allPresent: true }),
    SessionCreate: {
      ...requestOf(docs, `${CORE}.CreateSessionRequest`),
      required: ['userCode', 'accountNo'],
    },
    SessionUpdate: {
      type: 'object',
      additionalProperties: false,
      description: docs.message(`${CORE}.UpdateSessionRequest`),
      properties: {
        expiresAt: { type: 'string', format: 'date-time', description: docs.field(`${CORE}.UpdateSessionRequest`, 'expiresAt') },
        active: { type: 'boolean', description: docs.field(`${CORE}.UpdateSessionRequest`, 'active') },
      },
    },
    ExceptionEntry: protoSchema(docs, `${CORE}.ExceptionEntry`, { only: EXCEPTION_FIELDS, allPresent: true }),
    AccessToken: protoSchema(docs, `${CORE}.AccessToken`, { allPresent: true }),
    CreateAccessTokenRequest: { ...requestOf(docs, `${CORE}.CreateAccessTokenRequest`), required: ['name', 'expiresAt', 'crProcessId', 'roles'] },
    CreatedAccessToken: protoSchema(docs, `${CORE}.CreateAccessTokenResponse`, { allPresent: true }),
    HistoryEvent: historyEvent(docs),
    Health: {
      type: 'object',
      description: 'UP when every component is (200), else DOWN (503); docs/interface.md#health.',
      properties: {
        status: { type: 'string', enum: ['UP', 'DOWN'] },
        components: {
          type: 'object',
          description: 'core, bpm, dms, db, diskSpace, and redis when configured.',
          additionalProperties: {
            type: 'object',
            properties: { status: { type: 'string', enum: ['UP', 'DOWN'] }, details: { type: 'object' } },
            required: ['status'],
          },
        },
      },
      required: ['status', 'components'],
    },
    Liveness: { type: 'object', properties: { status: { const: 'UP' } }, required: ['status'] },
    DmsFileUpload: {
      type: 'object',
      description: 'The multipart form of POST /api/dms-file/upload (docs/interface.md#files).',
      properties: {
        file: { type: 'string', format: 'binary', description: 'The file.' },
        crProcessId: { type: 'integer', format: 'int64', description: 'Tenant.' },
        entityType: { type: 'string', description: 'Linked entity type.' },
        entityId: { type: 'integer', format: 'int64', description: 'Linked entity id.' },
        integrationKey: { type: 'string', description: 'External system reference.' },
        categoryId: { type: 'integer', format: 'int64', description: 'Category id.' },
        description: { type: 'string', description: 'Description.' },
        tags: { type: 'string', description: 'Comma-separated tags.' },
      },
      required: ['file', 'crProcessId'],
    },
    DmsFileUploaded: {
      type: 'object',
      properties: {
        fileId: { type: 'integer', format: 'int64' },
        originalFileName: { type: 'string' },
        storedFileName: { type: 'string' },
        fileSize: { type: 'integer', format: 'int64' },
        mimeType: { type: 'string' },
        uploadDate: { type: 'string', format: 'date-time' },
        duplicateOfFileId: { type: 'integer', format: 'int64', description: 'A live file of the tenant with the same checksum, when there is one.' },
      },
      required: ['fileId', 'originalFileName', 'storedFileName', 'fileSize', 'mimeType', 'uploadDate'],
    },
    DmsFileDownloadUrl: {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          description: '/api/dms-file/download/{id}?token=...&expires=...&inline=...&user=... (user: the caller, whom its download is audited as)',
        },
        expiresAt: { type: 'string', format: 'date-time' },
      },
      required: ['url', 'expiresAt'],
    },
  };
}

/** `success: true` first, then the proto's fields and `extra`. */
function withAuthFlags(schema: SchemaObject, extra: Record<string, SchemaObject>): SchemaObject {
  return {
    ...schema,
    properties: { success: { const: true }, ...extra, ...schema.properties },
    required: ['success', ...Object.keys(extra), ...(schema.required ?? [])],
  };
}

/** A request body of string fields that is a proto request message as written (unknown fields: 400). */
function requestOf(docs: ProtoDocs, message: string): SchemaObject {
  const schema = protoSchema(docs, message);
  return { ...schema, additionalProperties: false };
}

/** The list request of a resource: its own filter. */
export function resourcePageRequest(docs: ProtoDocs, resource: Resource, resources: readonly Resource[]): SchemaObject {
  return pageRequest(docs, resourceFilter(resource, resources), true, true);
}

/**
 * The body of a resource's export (docs/interface.md#export): its list's PageRequest without `page`,
 * `size` and `after`, with `columns` (field names, in the order wanted) and `ids` (the keys of a selection).
 */
export function resourceExportRequest(docs: ProtoDocs, resource: Resource, resources: readonly Resource[], columns: readonly string[]): SchemaObject {
  const request = resourcePageRequest(docs, resource, resources);
  const { page: _page, size: _size, after: _after, ...properties } = request.properties ?? {};
  const key = keyOf(resource) === 'id' ? { type: 'integer', format: 'int64', minimum: 1 } : { type: 'string', minLength: 1, maxLength: 255 };
  return {
    ...request,
    properties: {
      ...properties,
      columns: {
        type: ['array', 'null'],
        minItems: 1,
        uniqueItems: true,
        items: { type: 'string', enum: [...columns] },
        description: "The fields to write, in order (default: every field shown, in the record's order). Another name is 400 SVC-SYS-2001.",
      },
      ids: {
        type: ['array', 'null'],
        minItems: 1,
        maxItems: 500,
        items: key as SchemaObject,
        description: "Only these records (their keys: an export of a selection), in the list's order and within its filter.",
      },
    },
  };
}

export const pageRequestName = (resource: Resource) => `${schemaNames(resource).record}PageRequest`;
export const exportRequestName = (resource: Resource) => `${schemaNames(resource).record}ExportRequest`;
export const pageResponseName = (resource: Resource) => `${schemaNames(resource).record}Page`;

/** One event of a record's history (docs/interface.md#history); `changes` maps a field to its `{from, to}`. */
function historyEvent(docs: ProtoDocs): SchemaObject {
  const message = `${COMMON}.HistoryEvent`;
  const shown = protoSchema(docs, message, { only: ['id', 'type', 'occurredAt', 'userCode', 'version'], allPresent: true });
  const change: SchemaObject = {
    type: 'object',
    properties: { from: { description: 'The value before (null: none).' }, to: { description: 'The value after (null: none).' } },
    required: ['from', 'to'],
  };
  return {
    ...shown,
    properties: { ...shown.properties, changes: { type: 'object', additionalProperties: change, description: docs.field(message, 'changes') } },
    required: [...(shown.required ?? []), 'changes'],
  };
}

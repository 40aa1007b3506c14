import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import { apiFields, isScalar, type FieldSpec, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';
import type { PageRequest, Sort } from '@platform/kit/gen/platform/common/v1/common.ts';
import { SortDirection } from '@platform/kit/gen/platform/common/v1/common.ts';
import { MAX_AFTER_LENGTH } from '@platform/kit/resource/cursor.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
type Message = Record<string, unknown>;

/** Fields a client may send but that are set by the server (docs/interface.md#records: ignored, no mass assignment). */
const SERVER_SET = new Set(['id', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

export function asObject(body: unknown): JsonObject {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new DomainError('SVC-SYS-2001', 'body.notObject');
  return body as JsonObject;
}

/**
 * A create or update body as the proto record plus its update mask. Unknown fields are refused
 * naming the field, JSON types are checked by the field's kind, read-only fields are ignored, and
 * `null` on update clears a field. Semantic checks (required, lengths, enums) are the service's.
 */
export function recordFromJson(resource: Resource, body: unknown, mode: 'create' | 'update'): { record: Message; mask: string[] } {
  const object = asObject(body);
  const fields = apiFields(resource);
  const record: Message = {};
  const mask: string[] = [];
  for (const [name, value] of Object.entries(object)) {
    const spec = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!spec) throw invalidField(name, 'field.unknown');
    if (name === 'version') {
      if (mode === 'update' && value !== null) record.version = protoValue(name, COMMON_VERSION, value);
      continue;
    }
    if (SERVER_SET.has(name) || (isScalar(spec) && spec.readOnly)) continue;
    mask.push(name);
    if (value === null) continue;
    record[name] = isScalar(spec) ? protoValue(name, spec, value) : spec.kind === 'strings' ? stringList(name, value) : objectList(name, spec, value);
  }
  // repeated proto fields are never absent, only empty
  for (const [name, spec] of Object.entries(fields)) if (!isScalar(spec)) record[name] ??= [];
  return { record, mask };
}

const COMMON_VERSION: ScalarField = { kind: 'int' };

/** Per resource, the fields a client reads, in order, each marked scalar (unset: `null`) or a list (unset: `[]`). */
const shownFields = new WeakMap<Resource, readonly (readonly [name: string, scalar: boolean])[]>();

function shownFieldsOf(resource: Resource): readonly (readonly [name: string, scalar: boolean])[] {
  let fields = shownFields.get(resource);
  if (!fields) {
    fields = Object.entries(apiFields(resource))
      .filter(([, spec]) => !(isScalar(spec) && spec.writeOnly))
      .map(([name, spec]) => [name, isScalar(spec)] as const);
    shownFields.set(resource, fields);
  }
  return fields;
}

/** A proto record as the JSON a client reads: every shown field, `null` where unset. The fields are listed once per resource. */
export function recordToJson(resource: Resource, message: object): JsonObject {
  const json: JsonObject = {};
  for (const [name, scalar] of shownFieldsOf(resource)) {
    const value = (message as Message)[name];
    json[name] = value === undefined ? (scalar ? null : []) : (value as Json);
  }
  return json;
}

/** A PageRequest body (docs/interface.md#lists), shape-checked; the service applies the list rules. */
export function pageRequestFromJson(body: unknown): PageRequest {
  const object = asObject(body);
  const request: PageRequest = { sorts: [] };
  for (const [name, value] of Object.entries(object)) {
    switch (name) {
      case 'page':
      case 'size':
        if (value !== null) request[name] = protoValue(name, { kind: 'int' }, value) as number;
        break;
      case 'searchTerm':
        if (value !== null) request.searchTerm = protoValue(name, { kind: 'text' }, value) as string;
        break;
      case 'after':
        if (value !== null) request.after = protoValue(name, { kind: 'text', maxLength: MAX_AFTER_LENGTH }, value) as string;
        break;
      case 'sorts':
        if (value !== null) request.sorts = sortsFromJson(value);
        break;
      case 'filter':
        if (value !== null) request.filter = filterFromJson(value);
        break;
      default:
        throw invalidField(name, 'field.unknown');
    }
  }
  return request;
}

function sortsFromJson(value: Json): Sort[] {
  if (!Array.isArray(value)) throw invalidField('sorts', 'field.type', { type: 'array' });
  return value.map((item, index) => {
    const sort = item !== null && typeof item === 'object' && !Array.isArray(item) ? item : undefined;
    if (!sort) throw invalidField(`sorts[${index}]`, 'field.type', { type: 'object' });
    for (const key of Object.keys(sort)) {
      if (key !== 'field' && key !== 'direction') throw invalidField(`sorts[${index}].${key}`, 'field.unknown');
    }
    if (typeof sort.field !== 'string') throw invalidField(`sorts[${index}].field`, 'field.type', { type: 'string' });
    const direction = sort.direction ?? 'ASC';
    if (typeof direction !== 'string' || !/^(asc|desc)$/i.test(direction)) throw new DomainError('SVC-SYS-2001', 'sort.direction');
    return {
      field: sort.field,
      direction: direction.toUpperCase() === 'DESC' ? SortDirection.SORT_DIRECTION_DESC : SortDirection.SORT_DIRECTION_ASC,
    };
  });
}

function filterFromJson(value: Json): Record<string, unknown> {
  const filter = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  if (!filter) throw invalidField('filter', 'field.type', { type: 'object' });
  for (const [key, item] of Object.entries(filter)) {
    if (item !== null && typeof item === 'object') throw invalidField(`filter.${key}`, 'field.type', { type: 'scalar' });
  }
  return filter;
}

/** An array of strings (the service checks the items' form and count). */
function stringList(name: string, value: Json): string[] {
  if (!Array.isArray(value)) throw invalidField(name, 'field.type', { type: 'array' });
  return value.map((item, index) => {
    if (typeof item !== 'string') throw invalidField(`${name}[${index}]`, 'field.type', { type: 'string' });
    return item;
  });
}

function objectList(name: string, spec: Extract<FieldSpec, { kind: 'objects' }>, value: Json): Message[] {
  if (!Array.isArray(value)) throw invalidField(name, 'field.type', { type: 'array' });
  return value.map((item, index) => {
    const object = item !== null && typeof item === 'object' && !Array.isArray(item) ? item : undefined;
    if (!object) throw invalidField(`${name}[${index}]`, 'field.type', { type: 'object' });
    const converted: Message = {};
    for (const [key, inner] of Object.entries(object)) {
      const innerSpec = Object.hasOwn(spec.of, key) ? spec.of[key] : undefined;
      if (!innerSpec) {
        // the read shape (accountName, crProcessId) may be sent back as it was read
        if (key === 'accountName' || key === 'crProcessId') continue;
        throw invalidField(`${name}[${index}].${key}`, 'field.unknown');
      }
      if (inner !== null) converted[key] = protoValue(`${name}[${index}].${key}`, innerSpec, inner);
    }
    return converted;
  });
}

/**
 * The JSON type of a value must be its kind's own (docs/interface.md#records): a whole number for long and
 * int (`"20"` is refused), a boolean for boolean; only a decimal (money, quantity) may come as a
 * number or a string.
 */
function protoValue(name: string, spec: ScalarField, value: Json): unknown {
  switch (spec.kind) {
    case 'string':
    case 'text':
    case 'enum':
    case 'date':
    case 'datetime':
      if (typeof value !== 'string') throw invalidField(name, 'field.type', { type: 'string' });
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw invalidField(name, 'field.type', { type: 'boolean' });
      return value;
    case 'long':
    case 'int': {
      const limit = spec.kind === 'int' ? 2_147_483_647 : Number.MAX_SAFE_INTEGER;
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || Math.abs(value) > limit) {
        throw invalidField(name, 'field.type', { type: 'integer' });
      }
      return value;
    }
    case 'decimal':
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value !== 'string') throw invalidField(name, 'field.type', { type: 'decimal' });
      return value;
  }
}

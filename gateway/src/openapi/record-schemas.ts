import type { SchemaObject } from 'openapi3-ts/oas31';
import {
  apiFields,
  COMMON_FIELDS,
  isScalar,
  keyOf,
  type FieldSpec,
  type ObjectListField,
  type Resource,
  type StringListField,
  type ScalarField,
} from '@platform/kit/resource/resource.ts';
import { fieldSchema, nullable } from './field-schema.ts';
import { fieldLabels, itemLabels, recordLabels } from './label-keywords.ts';
import type { ProtoDocs } from './proto-docs.ts';
import { protoSchema } from './proto-schema.ts';

/** Common fields that every stored record has a value for (docs/interface.md#records). */
const ALWAYS_SET = new Set(['id', 'version', 'crProcessId', 'status', 'createdAt']);

/** The proto package and service of a resource, from its generated grpc-js definition. */
export function protoNames(resource: Resource): { message: string; service: string } {
  const path = Object.values(resource.grpc)[0]?.path ?? '';
  const service = /^\/([^/]+)\//.exec(path)?.[1] ?? '';
  return { message: `${service.slice(0, service.lastIndexOf('.'))}.${resource.name}`, service };
}

/** Names of a resource's schemas under components.schemas. */
export const schemaNames = (resource: Resource) => ({
  record: resource.name,
  create: `${resource.name}Create`,
  update: `${resource.name}Update`,
});

/**
 * The record schemas of one resource, from its declaration (libs/kit/src/resource/resource.ts) with the
 * proto comments as descriptions:
 * - the record as read (`Branch`): every shown field, always present, null where unset; write-only
 *   fields never appear;
 * - the create body (`BranchCreate`): the writable fields, `required` as declared;
 * - the update body (`BranchUpdate`): `version` (required unless If-Match is sent, which the schema
 *   cannot say), any writable field, `null` clears an optional one (docs/adr/0001-update-is-a-merge.md).
 * Unknown fields are refused (400 SVC-SYS-2001); read-only ones sent anyway are ignored.
 */
export function recordSchemas(resource: Resource, docs: ProtoDocs): Record<string, SchemaObject> {
  const { message } = protoNames(resource);
  const fields = Object.entries(apiFields(resource));
  const describe = (name: string, schema: SchemaObject, spec: FieldSpec): SchemaObject => {
    const notes = [docs.field(message, name), schema.description];
    if (isScalar(spec) && spec.immutable) notes.push('Set on create; a different value on update is 400.');
    if (isScalar(spec) && spec.unique) notes.push(spec.unique === 'global' ? 'Unique across tenants.' : 'Unique within the tenant.');
    if (isScalar(spec) && spec.references)
      notes.push(`Id of a ${spec.references} of the same tenant${spec.within ? `, whose ${spec.within} is this record's` : ''}.`);
    const text = notes.filter(Boolean).join(' ');
    return { ...itemLabels(resource, name, spec, schema), ...(text && { description: text }), ...fieldLabels(resource, name, spec) };
  };

  const shown = fields.filter(([, spec]) => !(isScalar(spec) && spec.writeOnly));
  const read: Record<string, SchemaObject> = {};
  for (const [name, spec] of shown) {
    const schema = isScalar(spec) ? fieldSchema(spec, 'out') : spec.kind === 'strings' ? writeList(spec) : readList(docs, message, name);
    read[name] = describe(name, isScalar(spec) && !spec.required && !ALWAYS_SET.has(name) ? nullable(schema) : schema, spec);
  }

  const writable = fields.filter(([, spec]) => !(isScalar(spec) && spec.readOnly));
  const body = (_mode: 'create' | 'update') => {
    const properties: Record<string, SchemaObject> = {};
    for (const [name, spec] of writable) {
      const schema = isScalar(spec) ? fieldSchema(spec, 'in') : writeList(spec);
      // null clears an optional field; on create it is the same as leaving the field out
      properties[name] = describe(name, spec.required ? schema : nullable(schema), spec);
    }
    return properties;
  };
  const names = schemaNames(resource);
  const recordDoc = docs.message(message);
  return {
    [names.record]: { type: 'object', description: recordDoc, ...recordLabels(resource), properties: read, required: shown.map(([name]) => name) },
    [names.create]: {
      type: 'object',
      description: `A new ${resource.path}; crProcessId names its tenant. Read-only fields sent are ignored.`,
      properties: body('create'),
      required: writable.filter(([, spec]) => spec.required).map(([name]) => name),
    },
    [names.update]: {
      type: 'object',
      description: `The fields of the ${resource.path} to change (the others keep their value) and the version read.`,
      properties: {
        version: {
          type: 'integer',
          format: 'int32',
          minimum: 0,
          description:
            'The version last read: a stale one is 409 SVC-SYS-4002. Required unless If-Match is sent; then, when sent, one of the versions If-Match names (else 400 SVC-SYS-2001).',
          ...fieldLabels(resource, 'version', COMMON_FIELDS.version),
        },
        ...body('update'),
      },
    },
  };
}

/** A list field as read: the items' proto message (user-process selects: accountNo, accountName, crProcessId). */
function readList(docs: ProtoDocs, message: string, name: string): SchemaObject {
  const field = docs.fields(message).find((candidate) => candidate.name === name);
  if (!field) throw new Error(`${message} has no field ${name}`);
  return { type: 'array', items: protoSchema(docs, field.type) };
}

/** A list field as written: the item fields the declaration accepts, or strings. */
function writeList(spec: ObjectListField | StringListField): SchemaObject {
  if (spec.kind === 'strings') {
    return {
      type: 'array',
      ...(spec.maxItems === undefined ? {} : { maxItems: spec.maxItems }),
      items: { type: 'string', ...(spec.maxLength === undefined ? {} : { maxLength: spec.maxLength }) },
    };
  }
  const entries = Object.entries(spec.of) as [string, ScalarField][];
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: Object.fromEntries(entries.map(([name, item]) => [name, fieldSchema(item, 'in')])),
      required: entries.filter(([, item]) => item.required).map(([name]) => name),
    },
  };
}

/** The path parameter of a record's key: a positive id, or the declared key (account: accountNo). */
export function keySchema(resource: Resource): SchemaObject {
  const key = keyOf(resource);
  const spec = apiFields(resource)[key];
  if (key === 'id' || !spec || !isScalar(spec)) return { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
  return { type: 'string', minLength: 1, maxLength: Math.min(255, spec.maxLength ?? 255) };
}

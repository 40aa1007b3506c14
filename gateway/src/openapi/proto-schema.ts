import type { SchemaObject } from 'openapi3-ts/oas31';
import { nullable } from './field-schema.ts';
import type { ProtoDocs, ProtoField } from './proto-docs.ts';

/** JSON types of proto scalars as the gateway writes them (int64 as a safe-integer number). */
const SCALARS: Readonly<Record<string, SchemaObject>> = {
  string: { type: 'string' },
  bool: { type: 'boolean' },
  int32: { type: 'integer', format: 'int32' },
  uint32: { type: 'integer', format: 'int32', minimum: 0 },
  int64: { type: 'integer', format: 'int64' },
  uint64: { type: 'integer', format: 'int64', minimum: 0 },
  double: { type: 'number' },
  float: { type: 'number' },
};

/** A string field whose comment says it is an ISO 8601 timestamp (the protos carry them as strings). */
const TIMESTAMP = /ISO 8601/;

/**
 * The JSON Schema of a proto message as the gateway shows it, with the proto comments as
 * descriptions: for the bodies that are no resource's record (sessions, exception entries, the
 * login and me bodies). `only` picks and orders the fields shown; `allPresent` says the gateway
 * writes every field (null where unset).
 *
 * @example
 * protoSchema(docs, 'platform.core.v1.Session', { only: ['sessionId', 'userCode'] })
 */
export function protoSchema(docs: ProtoDocs, message: string, options: { only?: readonly string[]; allPresent?: boolean } = {}): SchemaObject {
  const all = docs.fields(message);
  const fields = options.only ? options.only.map((name) => pick(all, name, message)) : all;
  const properties: Record<string, SchemaObject> = {};
  for (const field of fields) properties[field.name] = fieldOf(docs, field);
  return {
    type: 'object',
    description: docs.message(message),
    properties,
    required: fields.filter((field) => options.allPresent || !field.optional).map((field) => field.name),
  };
}

function pick(fields: ProtoField[], name: string, message: string): ProtoField {
  const field = fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`${message} has no field ${name}`);
  return field;
}

function fieldOf(docs: ProtoDocs, field: ProtoField): SchemaObject {
  const scalar = SCALARS[field.type];
  let schema: SchemaObject = scalar ? { ...scalar } : protoSchema(docs, field.type);
  if (scalar && field.type === 'string' && TIMESTAMP.test(field.comment ?? '')) schema.format = 'date-time';
  if (field.repeated) schema = { type: 'array', items: schema };
  else if (field.optional) schema = nullable(schema);
  if (field.comment) schema.description = field.comment;
  return schema;
}

import type { SchemaObject } from 'openapi3-ts/oas31';
import type { ScalarField } from '@platform/kit/resource/resource.ts';
import { DECIMAL, maxLengthOf } from '@platform/kit/resource/values.ts';

/** A decimal as the platform returns it: at least two decimals, at most four (docs/interface.md#records). */
const DECIMAL_OUT = '^-?\\d{1,15}\\.\\d{2,4}$';
const INT32 = { minimum: -2_147_483_648, maximum: 2_147_483_647 };
const INT64 = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/**
 * The JSON Schema of one declared field (libs/kit/src/resource/resource.ts) as a client sends it (`in`) or
 * reads it (`out`). The JSON types are the gateway's (docs/adr/0002-field-rules-immutable-keys-strict.md: integers are safe-integer JSON
 * numbers, a decimal is a string on the way out and a string or number on the way in).
 *
 * @example
 * fieldSchema({ kind: 'string', maxLength: 64 }, 'in') // { type: 'string', maxLength: 64 }
 * fieldSchema({ kind: 'decimal' }, 'out')             // { type: 'string', pattern: '^-?\\d{1,15}\\.\\d{2,4}$' }
 */
export function fieldSchema(spec: ScalarField, direction: 'in' | 'out'): SchemaObject {
  const schema = kindSchema(spec, direction);
  if (spec.default !== undefined) schema.default = spec.default;
  if (spec.readOnly) schema.readOnly = true;
  if (spec.writeOnly) schema.writeOnly = true;
  return schema;
}

function kindSchema(spec: ScalarField, direction: 'in' | 'out'): SchemaObject {
  switch (spec.kind) {
    case 'string':
    case 'text': {
      const schema: SchemaObject = { type: 'string', maxLength: maxLengthOf(spec) };
      if (spec.minLength !== undefined) schema.minLength = spec.minLength;
      if (spec.maxBytes !== undefined) schema.description = `At most ${spec.maxBytes} bytes of UTF-8.`;
      if (spec.pattern !== undefined) schema.pattern = spec.pattern;
      return schema;
    }
    case 'enum':
      return { type: 'string', enum: [...(spec.values ?? [])] };
    case 'boolean':
      return { type: 'boolean' };
    case 'int':
      return { type: 'integer', format: 'int32', ...range(spec, INT32) };
    case 'long':
      return { type: 'integer', format: 'int64', ...range(spec, INT64) };
    case 'decimal':
      return direction === 'out'
        ? { type: 'string', pattern: DECIMAL_OUT }
        : { type: ['string', 'number'], pattern: DECIMAL.source, description: 'A decimal string (up to 4 decimals) or a JSON number.' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
  }
}

function range(spec: ScalarField, limits: { minimum: number; maximum: number }): { minimum: number; maximum: number } {
  return { minimum: spec.min ?? limits.minimum, maximum: spec.max ?? limits.maximum };
}

/** `schema` or null: an optional field reads as `null` when unset, and `null` clears it on update. */
export function nullable(schema: SchemaObject): SchemaObject {
  const type = schema.type;
  if (type === undefined) return { anyOf: [schema, { type: 'null' }] };
  const types = Array.isArray(type) ? type : [type];
  const widened: SchemaObject = { ...schema, type: [...types, 'null'] };
  // an enum lists its values: null must be one of them too
  if (schema.enum) widened.enum = [...schema.enum, null];
  return widened;
}

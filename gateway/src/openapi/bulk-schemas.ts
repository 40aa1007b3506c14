import type { SchemaObject } from 'openapi3-ts/oas31';
import { MAX_BULK_ITEMS } from '@platform/contracts/bulk.ts';
import { keyOf, offers, type Resource } from '@platform/kit/resource/resource.ts';
import { keySchema, schemaNames } from './record-schemas.ts';
import { ref } from './shared-schemas.ts';

/** Names of a resource's bulk schemas under components.schemas. */
export const bulkSchemaNames = (resource: Resource) => ({
  request: `${resource.name}BulkRequest`,
  response: `${resource.name}BulkResponse`,
});

/**
 * The body and answer of a resource's `POST /api/{path}/bulk` (docs/interface.md#bulk-changes): the
 * items of the actions it offers, each with the record schemas of its single route, and a result per
 * item. None when it offers no write.
 */
export function bulkSchemas(resource: Resource): Record<string, SchemaObject> {
  const names = schemaNames(resource);
  const key = { ...keySchema(resource), description: keyOf(resource) === 'id' ? "The record's id." : `The record's ${keyOf(resource)}.` };
  const item = (action: string, description: string, properties: Record<string, SchemaObject>, required: string[]): SchemaObject => ({
    type: 'object',
    description,
    properties: { action: { type: 'string', const: action }, ...properties },
    required: ['action', ...required],
    additionalProperties: false,
  });
  const items: SchemaObject[] = [];
  if (offers(resource, 'create')) items.push(item('create', `As POST /api/${resource.path}.`, { record: ref(names.create) }, ['record']));
  if (offers(resource, 'update'))
    items.push(
      item('update', `As PUT /api/${resource.path}/{key} without If-Match: record.version is required.`, { key, record: ref(names.update) }, ['key', 'record']),
    );
  if (offers(resource, 'delete')) {
    const version: SchemaObject = {
      type: 'integer',
      format: 'int32',
      minimum: 0,
      description: 'When sent, the record is deleted only at this version, as with If-Match: W/"version" (else 412 SVC-SYS-4002).',
    };
    items.push(item('delete', `As DELETE /api/${resource.path}/{key}.`, { key, version }, ['key']));
  }
  if (items.length === 0) return {};
  const bulk = bulkSchemaNames(resource);
  return {
    [bulk.request]: {
      type: 'object',
      description: `1 to ${MAX_BULK_ITEMS} creates, updates and deletes of ${resource.path} records, run in order, each as its single route.`,
      properties: {
        items: { type: 'array', minItems: 1, maxItems: MAX_BULK_ITEMS, items: items.length === 1 ? (items[0] as SchemaObject) : { oneOf: items } },
      },
      required: ['items'],
      additionalProperties: false,
    },
    [bulk.response]: {
      type: 'object',
      description: 'A result per item, in the order sent, and their counts.',
      properties: {
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              index: { type: 'integer', minimum: 0, description: 'The item’s place in items, from 0.' },
              status: {
                type: 'integer',
                description: 'The HTTP status its single route would have answered: 200 create and update, 204 delete, or the error’s. Absent when not run.',
              },
              record: { ...ref(names.record), description: 'The record written, on a create or update that passed.' },
              error: { ...ref('ErrorBody'), description: 'The error body of the item that failed, in the caller’s language.' },
              notRun: { type: 'boolean', const: true, description: 'The item was not run: an item before it failed with 401 or a 5xx.' },
            },
            required: ['index'],
          },
        },
        succeeded: { type: 'integer', minimum: 0 },
        failed: { type: 'integer', minimum: 0 },
        notRun: { type: 'integer', minimum: 0 },
      },
      required: ['results', 'succeeded', 'failed', 'notRun'],
    },
  };
}

import { BULK_ACTIONS, MAX_BULK_ITEMS, type BulkAction } from '@platform/contracts/bulk.ts';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import { keyOf, type Resource } from '@platform/kit/resource/resource.ts';
import type { KeyRequest } from '@platform/kit/resource/crud-methods.ts';
import { asObject, type Json } from './record-json.ts';

/** Largest version a record can have (an int32 column). */
const MAX_VERSION = 2_147_483_647;

/**
 * The items of a bulk body `{ "items": [...] }` (docs/interface.md#bulk-changes), unread: the
 * envelope alone is checked here, each item where it runs (bulkItem). A body that is not an object,
 * without `items`, with another key, or whose `items` is not an array of 1 to MAX_BULK_ITEMS is 400
 * SVC-SYS-2001 for the whole request, before any item runs.
 */
export function bulkItems(body: unknown): unknown[] {
  const object = asObject(body);
  for (const name of Object.keys(object)) if (name !== 'items') throw invalidField(name, 'field.unknown');
  const items = object.items;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BULK_ITEMS) {
    throw new DomainError('SVC-SYS-2001', 'bulk.items', { field: 'items', max: String(MAX_BULK_ITEMS) });
  }
  return items;
}

/** One item of a bulk body, read: the single route it stands for and what that route would read of its request. */
export type BulkItem =
  { action: 'create'; record: unknown } | { action: 'update'; key: KeyRequest; record: unknown } | { action: 'delete'; key: KeyRequest; version?: number };

/** The keys each action takes. */
const KEYS: Record<BulkAction, readonly string[]> = {
  create: ['action', 'record'],
  update: ['action', 'key', 'record'],
  delete: ['action', 'key', 'version'],
};

/**
 * One bulk item as its action (the record itself is read by the single route's own reading,
 * recordFromJson, where it runs). Each refusal is that item's 400 SVC-SYS-2001 naming the field:
 * an item that is not an object, an unknown or missing `action`, a key the action does not take,
 * a missing `key` or `record`, a key of the wrong type (the resource's id is a positive whole
 * number, a text key 1 to 255 characters), a `version` that is not a whole number from 0.
 */
export function bulkItem(resource: Resource, raw: unknown): BulkItem {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new DomainError('SVC-SYS-2001', 'body.notObject');
  const item = raw as Record<string, Json>;
  const action = item.action;
  if (typeof action !== 'string' || !(BULK_ACTIONS as readonly string[]).includes(action)) {
    throw invalidField('action', action === undefined ? 'field.required' : 'field.enum', { values: BULK_ACTIONS.join(', ') });
  }
  const known = KEYS[action as BulkAction];
  for (const name of Object.keys(item)) if (!known.includes(name)) throw invalidField(name, 'field.unknown');
  switch (action as BulkAction) {
    case 'create':
      return { action: 'create', record: required(item, 'record') };
    case 'update':
      return { action: 'update', key: itemKey(resource, required(item, 'key')), record: required(item, 'record') };
    case 'delete': {
      const key = itemKey(resource, required(item, 'key'));
      const version = item.version;
      if (version === undefined || version === null) return { action: 'delete', key };
      if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0 || version > MAX_VERSION) {
        throw invalidField('version', 'field.type', { type: 'integer' });
      }
      return { action: 'delete', key, version };
    }
  }
}

function required(item: Record<string, Json>, name: string): Json {
  const value = item[name];
  if (value === undefined || value === null) throw invalidField(name, 'field.required');
  return value;
}

/** An item's key as the path's would be read (crud.ts keyParam): the resource's id, or its declared text key. */
function itemKey(resource: Resource, value: Json): KeyRequest {
  const key = keyOf(resource);
  if (key === 'id') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw invalidField('key', 'field.type', { type: 'integer' });
    return { id: value };
  }
  if (typeof value !== 'string' || value === '' || value.length > 255) throw invalidField('key', 'field.type', { type: 'string' });
  return { [key]: value };
}

import { invalidField } from '@platform/kit/errors/domain-error.ts';
import type { ScalarField } from '@platform/kit/resource/resource.ts';
import { toMessageValue, toRowValue } from '@platform/kit/resource/values.ts';
import { MAX_AFTER_LENGTH } from '@platform/kit/resource/cursor.ts';
import type { Row } from '../db/entity-schema.ts';

/**
 * One key of a list's order, as a cursor reads and writes it: the field, its direction, its
 * declaration (what its values are) and whether its column may hold NULL (PostgreSQL sorts NULL
 * after every value ascending and before every value descending).
 */
export interface SortKey {
  field: string;
  desc: boolean;
  spec: ScalarField;
  nullable: boolean;
}

/** Where a cursor page starts: at the beginning, or after the row whose sort values these are (one per key, in order). */
export type CursorPosition = { start: true } | { start: false; values: readonly unknown[] };

/** A decimal as a column of precision up to 38 holds it. */
const STORED_DECIMAL = /^-?\d{1,38}(\.\d{1,10})?$/;

/**
 * The order a cursor was made for, written into it, so that a cursor of one sort given with
 * another is refused rather than read as a position it is not: `partnerName:d,id:a`.
 */
export function orderSignature(keys: readonly SortKey[]): string {
  return keys.map((key) => `${key.field}:${key.desc ? 'd' : 'a'}`).join(',');
}

/**
 * The opaque `after` of the page that follows `row` (docs/adr/0154-cursor-paging-over-the-sort.md):
 * base64url of `{o: <order signature>, v: [<the row's sort values as the API writes them>]}`. It
 * is not signed: it only names a place in the sort, and every page is read with the request's own
 * tenant, filter and roles, so a forged one can reach nothing its holder could not list.
 *
 * @example
 * encodeAfter(keys, row) // 'eyJvIjoicGFydG5lck5hbWU6YSxpZDphIiwidiI6WyJBY21lIiw0Ml19'
 */
export function encodeAfter(keys: readonly SortKey[], row: Row): string {
  const values = keys.map((key) => toMessageValue(key.spec, row[key.field]) ?? null);
  return Buffer.from(JSON.stringify({ o: orderSignature(keys), v: values })).toString('base64url');
}

/**
 * Reads a request's `after` for the order `keys`: "" is the start; anything else must be a cursor
 * this order wrote, whose every value its field accepts (400 SVC-SYS-2001 `page.after` otherwise:
 * malformed, of another sort, or with a value its field refuses).
 */
export function decodeAfter(keys: readonly SortKey[], after: string): CursorPosition {
  if (after === '') return { start: true };
  const refused = () => invalidField('after', 'page.after');
  if (after.length > MAX_AFTER_LENGTH || !/^[A-Za-z0-9_-]+$/.test(after)) throw refused();
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  if (cursor === null || typeof cursor !== 'object' || Array.isArray(cursor)) throw refused();
  const { o, v } = cursor as { o?: unknown; v?: unknown };
  if (o !== orderSignature(keys) || !Array.isArray(v) || v.length !== keys.length) throw refused();
  const values = keys.map((key, index) => {
    const value: unknown = v[index];
    if (value === null) {
      if (!key.nullable) throw refused();
      return null;
    }
    // a stored decimal may be wider than a client may write one (a generated amount): any decimal text
    if (key.spec.kind === 'decimal') {
      if (typeof value !== 'string' || !STORED_DECIMAL.test(value)) throw refused();
      return value;
    }
    try {
      return toRowValue('after', key.spec, value);
    } catch {
      throw refused();
    }
  });
  return { start: false, values };
}

import type { EntityManager, EntitySchema, FilterQuery } from '@mikro-orm/postgresql';
import type { Row } from '../db/entity-schema.ts';
import { tenantRowCount } from '../db/tenant-count.ts';
import type { TenantListQuery } from './list-query.ts';
import { encodeAfter } from './list-cursor.ts';
import { keysetCondition } from './keyset.ts';
import { countRows, plainKeys, plainRows } from '../db/plain-rows.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';

/** What a list reads: the page's rows, in order, and the exact number of matching rows. */
export interface PageRows {
  rows: Row[];
  totalElements: number;
}

/**
 * One page of a resource's list and its exact totalElements (docs/interface.md#lists), as plain rows
 * (db/plain-rows.ts), the page and the count at once, each on its own pooled connection (outside a transaction) and each
 * with its scope in one round trip, so a list takes as long as the slower of the two:
 *
 * - page 0 reads its rows directly (`order by ... limit`), through the index that matches the sort;
 * - a later page first reads only the keys of its rows (`select id ... offset`), which an index
 *   that covers the tenant, the sort and id answers without touching the table (an index-only
 *   scan: page 10,000 of 20 skips 200,000 index entries in about 15 ms, where fetching every
 *   skipped row took 470 ms), then the rows of those keys;
 * - an unfiltered list of a `tenantCount` resource reads its total from the per-tenant count the
 *   table's triggers keep; any other list counts the matching rows.
 *
 * @example
 * const { rows, totalElements } = await readPage(em, entity, resource, query, { ...query.where, ...liveOnly(resource) });
 */
export async function readPage(
  em: EntityManager,
  entity: EntitySchema<Row>,
  resource: Resource,
  query: TenantListQuery,
  where: FilterQuery<Row>,
): Promise<PageRows> {
  const [rows, totalElements] = await Promise.all([
    pageRows(em, entity, query, where),
    resource.tenantCount && !query.narrowed ? tenantRowCount(em, resource, entity.meta.schema ?? 'public', query.crProcessId) : countRows(em, entity, where),
  ]);
  return { rows, totalElements };
}

async function pageRows(em: EntityManager, entity: EntitySchema<Row>, query: TenantListQuery, where: FilterQuery<Row>): Promise<Row[]> {
  const offset = query.page * query.size;
  if (offset === 0) return plainRows(em, entity, where, { orderBy: query.orderBy, limit: query.size });
  const keys = await plainKeys(em, entity, where, { orderBy: query.orderBy, limit: query.size, offset });
  if (keys.length === 0) return [];
  return plainRows(em, entity, { id: { $in: keys } } as FilterQuery<Row>, { orderBy: query.orderBy, limit: keys.length });
}

/** A cursor page: its rows, in order, and the next page's `after` when rows follow. */
export interface CursorRows {
  rows: Row[];
  nextAfter: string | undefined;
}

/**
 * A cursor page of a list (docs/adr/0154-cursor-paging-over-the-sort.md): the rows after the
 * query's position (keyset.ts), in the list's order, one more than the page asked to learn whether
 * any follow; never counted, so a page at the millionth row costs what the first does.
 */
export async function readCursorPage(em: EntityManager, entity: EntitySchema<Row>, query: TenantListQuery, where: FilterQuery<Row>): Promise<CursorRows> {
  const after = query.after;
  if (!after) throw new Error('readCursorPage of an offset query');
  const scoped = after.start ? where : ({ $and: [where, keysetCondition(query.keys, after.values)] } as FilterQuery<Row>);
  const rows = await plainRows(em, entity, scoped, { orderBy: query.orderBy, limit: query.size + 1 });
  if (rows.length <= query.size) return { rows, nextAfter: undefined };
  const page = rows.slice(0, query.size);
  return { rows: page, nextAfter: encodeAfter(query.keys, page[page.length - 1] as Row) };
}

import { raw, type FilterQuery, type QueryOrderMap } from '@mikro-orm/postgresql';
import { SortDirection, type PageMeta, type PageRequest } from '@platform/kit/gen/platform/common/v1/common.ts';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import { RANGE_KINDS, visibleScalars, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';
import { searchCondition } from './search-term.ts';
import { textMatch } from './text-match.ts';
import { matchFilters, type TextMatch } from '@platform/kit/resource/list-view.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import { columnNullable, type Row } from '../db/entity-schema.ts';
import { decodeAfter, type CursorPosition, type SortKey } from './list-cursor.ts';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 500;

export interface ListQuery {
  /** The tenant the filter names, if it names one. */
  crProcessId: number | undefined;
  where: FilterQuery<Row>;
  orderBy: QueryOrderMap<Row>[];
  page: number;
  size: number;
  /** Whether anything beyond the tenant narrows the rows (a filter or a searchTerm). */
  narrowed: boolean;
  /** The order's keys, `orderBy` read for a cursor (list-cursor.ts). */
  keys: SortKey[];
  /** A cursor page's position (the request's `after`); undefined for an offset page. */
  after: CursorPosition | undefined;
}

/** A query whose filter had to name a tenant (`tenant: 'required'`). */
export type TenantListQuery = ListQuery & { crProcessId: number };

export interface QueryOptions {
  /** Fields a client may filter and sort by. */
  fields: ReadonlyMap<string, ScalarField>;
  /** `required`: a list without filter.crProcessId is 400 SVC-SYS-2002. */
  tenant: 'required' | 'optional';
  /** Order when the request names none; ties are always broken by id. */
  defaultOrder?: QueryOrderMap<Row>[];
  /** The record's tiebreaker (default `id`). */
  idField?: string;
  /** Filter keys that match a text field by prefix or containment (`partnerCodePrefix`: list-view.ts). */
  matches?: ReadonlyMap<string, { field: string; match: TextMatch }>;
  /** Filter keys through a reference (`businessPartnerId` of an accrual: throughSubquery), by name. */
  through?: ReadonlyMap<string, ThroughQuery>;
  /** Whether the list serves cursor pages (`after`: docs/adr/0154-cursor-paging-over-the-sort.md); else `after` is an unknown field. */
  cursor?: boolean;
}

/**
 * A filter through a reference as the service answers it: the records whose `via` is the id of a
 * row of `table` (schema-qualified and quoted) in the same tenant whose `column` holds the value.
 */
export interface ThroughQuery {
  via: string;
  table: string;
  column: string;
  /** The referenced field's declaration: what the value must be. */
  spec: ScalarField;
}

/**
 * Turns a PageRequest into a query, with the rules of docs/interface.md#lists: size 1..500 (20 when not
 * given), page ≥ 0, sorts only by entity properties with ties broken by id, filters by equality on
 * scalar fields, `<field>From` / `<field>To` on ranges and `<field>Prefix` / `<field>Contains` on the
 * text fields the resource's list declares so (text-match.ts), `crProcessId` required, `searchTerm` a
 * case-insensitive substring in which every character is literal and the dotted and dotless I are
 * one letter (search-term.ts).
 */
export function buildListQuery(resource: Resource, request: PageRequest | undefined, through?: ReadonlyMap<string, ThroughQuery>): TenantListQuery {
  return buildQuery(request, {
    fields: new Map(visibleScalars(resource)),
    tenant: 'required',
    cursor: true,
    matches: matchFilters(resource.list),
    ...(through && { through }),
  });
}

/** The list rules over any set of fields (records of resources, sessions, exception entries). */
export function buildQuery(request: PageRequest | undefined, options: QueryOptions & { tenant: 'required' }): TenantListQuery;
export function buildQuery(request: PageRequest | undefined, options: QueryOptions): ListQuery;
export function buildQuery(request: PageRequest | undefined, options: QueryOptions): ListQuery {
  const { page, size } = pageBounds(request?.page, request?.size);
  const fields = options.fields;
  const filter: Record<string, unknown> = request?.filter ?? {};
  const rawTenant = filter.crProcessId;
  if ((rawTenant === undefined || rawTenant === null) && options.tenant === 'required') {
    throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
  }
  const crProcessId = rawTenant === undefined || rawTenant === null ? undefined : (toRowValue('filter.crProcessId', { kind: 'long' }, rawTenant) as number);

  const conditions: FilterQuery<Row>[] = crProcessId === undefined ? [] : [{ crProcessId }];
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'crProcessId') continue;
    const match = options.matches?.get(key);
    const through = options.through?.get(key);
    if (through) {
      // a tenant's own rows only: without the tenant the subquery would read every tenant's
      if (crProcessId === undefined) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
      conditions.push(throughCondition(through, crProcessId, toRowValue(`filter.${key}`, through.spec, value)));
    } else if (match) {
      const term = toRowValue(`filter.${key}`, { kind: 'text', maxLength: 255 }, value) as string;
      if (term !== '') conditions.push(textMatch(match.field, match.match, term));
    } else conditions.push(filterCondition(fields, key, value));
  }
  const term = request?.searchTerm;
  if (term !== undefined && term !== '') {
    const searchable = [...fields].filter(([, spec]) => spec.searchable).map(([name]) => name);
    if (searchable.length > 0) {
      conditions.push(searchCondition(searchable, toRowValue('searchTerm', { kind: 'text', maxLength: 255 }, term) as string));
    }
  }

  const orderBy: QueryOrderMap<Row>[] = [];
  for (const sort of request?.sorts ?? []) {
    if (!fields.has(sort.field)) throw invalidField(sort.field, 'sort.field');
    orderBy.push({ [sort.field]: sort.direction === SortDirection.SORT_DIRECTION_DESC ? 'desc' : 'asc' });
  }
  if (orderBy.length === 0 && options.defaultOrder) orderBy.push(...options.defaultOrder);
  orderBy.push({ [options.idField ?? 'id']: 'asc' });
  const narrowed = conditions.length > (crProcessId === undefined ? 0 : 1);
  if (request?.after === undefined) return { crProcessId, where: { $and: conditions }, orderBy, page, size, narrowed, keys: [], after: undefined };
  // a cursor: only where the list serves them, and never with a page index
  if (!options.cursor) throw invalidField('after', 'field.unknown');
  if (page !== 0) throw invalidField('page', 'page.withAfter');
  const keys = sortKeys(fields, orderBy);
  return { crProcessId, where: { $and: conditions }, orderBy, page, size, narrowed, keys, after: decodeAfter(keys, request.after) };
}

/** The keys of an order, each with its declaration and whether its column may hold NULL. */
function sortKeys(fields: ReadonlyMap<string, ScalarField>, orderBy: readonly QueryOrderMap<Row>[]): SortKey[] {
  return orderBy.flatMap((entry) =>
    Object.entries(entry).map(([field, direction]) => {
      const spec = fields.get(field);
      if (!spec) throw new Error(`the order names ${field}, which the list's fields lack`);
      return { field, desc: String(direction).toLowerCase() === 'desc', spec, nullable: columnNullable(field, spec) };
    }),
  );
}

/** page ≥ 0 (0 when not given) and size 1..500 (20 when not given), else 400 SVC-SYS-2001. */
export function pageBounds(rawPage: number | undefined, rawSize: number | undefined): { page: number; size: number } {
  const page = rawPage ?? 0;
  const size = rawSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(page) || page < 0) throw new DomainError('SVC-SYS-2001', 'page.index');
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw new DomainError('SVC-SYS-2001', 'page.size', { max: String(MAX_PAGE_SIZE) });
  }
  return { page, size };
}

function filterCondition(fields: ReadonlyMap<string, ScalarField>, key: string, value: unknown): FilterQuery<Row> {
  const exact = fields.get(key);
  if (exact) {
    if (value === null) return { [key]: null };
    return { [key]: toRowValue(`filter.${key}`, exact, value) };
  }
  const listed = Array.isArray(value) ? /^(.+)In$/.exec(key)?.[1] : undefined;
  const listedSpec = listed ? fields.get(listed) : undefined;
  if (listed && listedSpec) {
    // `<field>In`, a list of at most 500 values: the records of an export's selection (the gateway's
    // REST filter takes scalars only, so a list reaches here from the export alone)
    const values = value as unknown[];
    if (values.length < 1 || values.length > MAX_PAGE_SIZE) throw invalidField(`filter.${key}`, 'filter.unknown');
    return { [listed]: { $in: values.map((item, index) => toRowValue(`filter.${key}[${index}]`, listedSpec, item)) } };
  }
  const range = /^(.+)(From|To)$/.exec(key);
  const base = range?.[1];
  const spec = base ? fields.get(base) : undefined;
  if (!base || !spec || !RANGE_KINDS.has(spec.kind)) throw invalidField(`filter.${key}`, 'filter.unknown');
  const bound = toRowValue(`filter.${key}`, spec, value);
  return { [base]: range?.[2] === 'From' ? { $gte: bound } : { $lte: bound } };
}

/**
 * `<via> in (select id from <table> where cr_process_id = <tenant> and <column> = <value>)`: the
 * referenced rows of the tenant found by their own index on the column, the filtered rows by the
 * index on their reference (docs/adr/0141-a-list-filters-through-a-reference.md).
 *
 * @example
 * throughCondition({ via: 'contractId', table: '"bpm"."contract"', column: 'business_partner_id', spec }, 7, 42)
 * // e0."contract_id" in (select "id" from "bpm"."contract" where "cr_process_id" = 7 and "business_partner_id" = 42)
 */
function throughCondition(through: ThroughQuery, crProcessId: number, value: unknown): FilterQuery<Row> {
  const sql = `select "id" from ${through.table} where "cr_process_id" = ? and "${through.column}" = ?`;
  return { [through.via]: { $in: raw(sql, [crProcessId, value]) } } as FilterQuery<Row>;
}

/** A cursor page's meta: its size, whether it starts the walk, whether it ends it (no next), and the next page's `after`. */
export function cursorMeta(size: number, first: boolean, itemsOnPage: number, nextAfter: string | undefined): PageMeta {
  return { size, first, last: nextAfter === undefined, empty: itemsOnPage === 0, ...(nextAfter !== undefined && { nextAfter }) };
}

/** Spring Data page arithmetic (docs/interface.md#lists). */
export function pageMeta(page: number, size: number, totalElements: number, itemsOnPage: number): PageMeta {
  const totalPages = Math.ceil(totalElements / size);
  return {
    page,
    size,
    totalElements,
    totalPages,
    first: page === 0,
    last: page >= totalPages - 1,
    empty: itemsOnPage === 0,
  };
}

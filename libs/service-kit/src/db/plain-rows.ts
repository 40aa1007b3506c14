import type { EntityManager, EntitySchema, FilterQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import { readInScope } from './prepared.ts';
import type { Row } from './row.ts';

export interface PlainRead {
  orderBy: readonly QueryOrderMap<Row>[];
  limit: number;
  offset?: number;
}

/**
 * Rows of a list as plain objects: MikroORM's query builder with its results mapped to property
 * names (`execute('all', true)`), each custom type's value converted as hydration converts it (a
 * bigint column's text to the number `BigIntType('number')` makes), but no entity made, registered
 * or tracked. A list only reads what it answers; hydrating a page of 500 into managed entities
 * cost three times the CPU (bpm-svc: 20–25 ms against 7 ms per page of business partners), most
 * of it the identity map and the entities' property descriptors, and the garbage they leave.
 * Outside a transaction the read goes with its scope in one round trip (prepared.ts readInScope).
 * Never for rows that a write will change: those are read with `em.find`, into the unit of work.
 *
 * @example
 * const rows = await plainRows(em, entity, { crProcessId: 1 }, { orderBy: [{ id: 'asc' }], limit: 21 });
 */
export async function plainRows(em: EntityManager, entity: EntitySchema<Row>, where: FilterQuery<Row>, read: PlainRead): Promise<Row[]> {
  const qb = pageQuery(em, entity, '*', where, read);
  const { sql, params } = qb.toQuery();
  const meta = em.getMetadata().get(entity.meta.class ?? entity.meta.className);
  const driver = em.getDriver();
  // as qb.execute('all', true) maps them: columns to properties
  const rows = (await readInScope<Row>(em, sql, params)).map((raw) => driver.mapResult(raw, meta, [], qb as never) as Row);
  const converted = convertedProperties(em, entity);
  if (converted.length === 0) return rows;
  const platform = em.getPlatform();
  for (const row of rows) {
    for (const { name, type } of converted) {
      const value = row[name];
      if (value !== null && value !== undefined) row[name] = type.convertToJSValue(value, platform);
    }
  }
  return rows;
}

type Converted = { name: string; type: { convertToJSValue(value: unknown, platform: unknown): unknown } };
const convertedOf = new WeakMap<EntitySchema<Row>, Converted[]>();

/** The properties of an entity whose values a custom type converts (once per entity). */
function convertedProperties(em: EntityManager, entity: EntitySchema<Row>): Converted[] {
  let found = convertedOf.get(entity);
  if (!found) {
    const meta = em.getMetadata().get(entity.meta.class ?? entity.meta.className);
    found = Object.values(meta.properties).flatMap((prop) => (prop.customType ? [{ name: prop.name, type: prop.customType as Converted['type'] }] : []));
    convertedOf.set(entity, found);
  }
  return found;
}

/** A page's query: `select <fields> ... where ... order by ... limit ... offset`. */
function pageQuery(em: EntityManager, entity: EntitySchema<Row>, fields: '*' | 'id', where: FilterQuery<Row>, read: PlainRead) {
  const qb = em
    .createQueryBuilder(entity)
    .select(fields)
    // the same filter em.find takes; the builder types its own apart (QBFilterQuery), not exported here
    .where(where as never)
    .orderBy([...read.orderBy])
    .limit(read.limit);
  return read.offset ? qb.offset(read.offset) : qb;
}

/** The keys (`id`) of a page of a list, read as plainRows reads its rows: `select id ... order by ... limit ... offset`. */
export async function plainKeys(em: EntityManager, entity: EntitySchema<Row>, where: FilterQuery<Row>, read: PlainRead): Promise<unknown[]> {
  const { sql, params } = pageQuery(em, entity, 'id', where, read).toQuery();
  return (await readInScope<{ id: unknown }>(em, sql, params)).map((row) => row.id);
}

/** How many rows match `where`, as em.count counts them, read as plainRows reads. */
export async function countRows(em: EntityManager, entity: EntitySchema<Row>, where: FilterQuery<Row>): Promise<number> {
  const { sql, params } = em
    .createQueryBuilder(entity)
    .count()
    .where(where as never)
    .toQuery();
  const [row] = await readInScope<{ count: string | number }>(em, sql, params);
  return Number(row?.count ?? 0);
}

/**
 * Reading one record by its key, as a caller may see it: within its tenant scope, soft-deleted
 * records left out, as a named prepared statement on the hot path (built once per entity).
 */
import { LockMode, type EntityManager, type EntitySchema } from '@mikro-orm/postgresql';
import type { ReadAlong } from '../auth/access.ts';
import { tenantScope, type CallContext } from '../auth/caller.ts';
import { notFound } from '@platform/kit/errors/domain-error.ts';
import type { Row } from '../db/entity-schema.ts';
import { queryPrepared, type PreparedStatement } from '../db/prepared.ts';
import type { ResourceRuntime } from './runtime.ts';
import { limited, readLimitOf } from './read-limit.ts';
import { plainRows } from '../db/plain-rows.ts';
import { allFields, isScalar, keyOf, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';

/**
 * The row a caller may see under its key, or 404 (another tenant's row does not exist for it, nor
 * one outside the caller's read limit: read-limit.ts). Without `lock` (and outside a transaction)
 * it is a plain row for reading, not an entity the EntityManager manages: load it with `lock` to
 * change it.
 */
export async function findVisible(rt: ResourceRuntime, em: EntityManager, ctx: CallContext, key: unknown, lock = false): Promise<Row> {
  const [keyField, spec] = keyFieldOf(rt.resource);
  const value = toRowValue(keyField, spec, key);
  const scope = tenantScope(ctx);
  const limit = rt.hooks?.readLimit ? await readLimitOf(rt, { ...ctx, em }) : undefined;
  if (lock || limit) {
    const where: Row = { [keyField]: value, ...liveOnly(rt.resource) };
    if (scope !== undefined) where.crProcessId = scope;
    const [row] = lock
      ? [await em.findOne(rt.entity, limited(where, limit), { lockMode: LockMode.PESSIMISTIC_WRITE })]
      : await plainRows(em, rt.entity, limited(where, limit), { orderBy: [], limit: 1 });
    if (!row) throw notFound(rt.resource.path);
    return row;
  }
  const read = keyRead(em, rt);
  const along = ctx.along;
  if (along && along.name === read.along.name && along.key === value && em === ctx.em && !em.isInTransaction()) {
    // Read in the same statement as the caller's live access (readAlong), within the same scope.
    if (along.raw[read.keyColumn] === null || along.raw[read.keyColumn] === undefined) throw notFound(rt.resource.path);
    return read.toRow(along.raw);
  }
  if (em.isInTransaction()) {
    // Inside a transaction the read must go through its connection: MikroORM, hydrated.
    const [raw] = await em.execute<Row[]>(read.orm[scope === undefined ? 0 : 1], scope === undefined ? [value] : [value, scope]);
    if (!raw) throw notFound(rt.resource.path);
    return em.map(rt.entity, raw);
  }
  // The hot read: a named prepared statement (parsed and planned once per connection) on
  // MikroORM's own pg pool, mapped to a plain row as MikroORM would hydrate it.
  const [raw] =
    scope === undefined
      ? await queryPrepared<Record<string, unknown>>(em, read.any, [value])
      : await queryPrepared<Record<string, unknown>>(em, read.tenant, [value, scope]);
  if (!raw) throw notFound(rt.resource.path);
  return read.toRow(raw);
}

/**
 * The row a get's caller may see under its key when its call read it along with the access
 * (readAlong), without the call's EntityManager: 404 when that read found none, undefined when the
 * call read no such row (findVisible then reads it).
 */
export function visibleAlong(rt: ResourceRuntime, ctx: CallContext, key: unknown): Row | undefined {
  const along = ctx.along;
  const read = keyReads.get(rt.entity);
  if (!along || !read || along.name !== read.along.name) return undefined;
  const [keyField, spec] = keyFieldOf(rt.resource);
  if (along.key !== toRowValue(keyField, spec, key)) return undefined;
  if (along.raw[read.keyColumn] === null || along.raw[read.keyColumn] === undefined) throw notFound(rt.resource.path);
  return read.toRow(along.raw);
}

/**
 * The read of one record by key to run along with the caller's live access (auth/access.ts), for a
 * get: one round trip for both. Within the caller's scope as findVisible reads it (a super user's any
 * tenant, else the token's); undefined for a key that is not a valid value (the call then
 * fails where it would have, after authentication).
 */
export function readAlong(rt: ResourceRuntime, em: EntityManager, key: unknown): ReadAlong | undefined {
  const [keyField, spec] = keyFieldOf(rt.resource);
  if (spec.kind !== 'long' || typeof key !== 'number') return undefined;
  try {
    return { ...keyRead(em, rt).along, values: [toRowValue(keyField, spec, key)] };
  } catch {
    return undefined;
  }
}

/** A resource's key field and its declaration (the engine's keys are scalars). */
function keyFieldOf(resource: Resource): [name: string, spec: ScalarField] {
  const name = keyOf(resource);
  const spec = allFields(resource)[name];
  if (!spec || !isScalar(spec)) throw new Error(`${resource.path} has no scalar key ${name}`);
  return [name, spec];
}

interface KeyRead {
  /** Named statements for the pg pool: by key, and by key within a tenant. */
  any: PreparedStatement;
  tenant: PreparedStatement;
  /** By key (`$1`) within the live access's scope (`access.super_user`, `access.cr_process_id`): readAlong's select. */
  along: PreparedStatement;
  /** The key's column in a raw row. */
  keyColumn: string;
  /** The same two for em.execute (`?` placeholders). */
  orm: [string, string];
  /** A raw row (column names, MikroORM's pg type parsers) as a row of property names. */
  toRow(raw: Record<string, unknown>): Row;
}

const keyReads = new WeakMap<EntitySchema<Row>, KeyRead>();

function keyRead(em: EntityManager, rt: ResourceRuntime): KeyRead {
  let read = keyReads.get(rt.entity);
  if (read) return read;
  const meta = em.getMetadata(rt.entity);
  const platform = em.getPlatform();
  const columns: [name: string, column: string, convert: (value: unknown) => unknown][] = [];
  for (const [name, spec] of Object.entries(allFields(rt.resource))) {
    const column = meta.properties[name]?.fieldNames[0];
    if (!isScalar(spec) || !column) continue;
    columns.push([name, column, converterOf(spec, platform)]);
  }
  const key = meta.properties[keyOf(rt.resource)]?.fieldNames[0] ?? 'id';
  const list = columns.map(([, column]) => `"${column}"`).join(', ');
  const softDelete = rt.resource.softDelete === undefined ? undefined : meta.properties[rt.resource.softDelete]?.fieldNames[0];
  const live = softDelete === undefined ? '' : ` and "${softDelete}" = false`;
  const base = `select ${list} from "${meta.schema}"."${meta.tableName}" where "${key}" = $1${live}`;
  const name = `read-${meta.schema}-${meta.tableName}`;
  read = {
    any: { name: `${name}-any`, text: `${base} limit 1` },
    tenant: { name: `${name}-tenant`, text: `${base} and "cr_process_id" = $2 limit 1` },
    along: { name, text: `${base} and (access.super_user or "cr_process_id" = access.cr_process_id) limit 1` },
    keyColumn: key,
    orm: [`${base.replace('$1', '?')} limit 1`, `${base.replace('$1', '?')} and "cr_process_id" = ? limit 1`],
    toRow: (raw) => {
      const row: Row = {};
      for (const [property, column, convert] of columns) {
        const value = raw[column];
        row[property] = value === null || value === undefined ? null : convert(value);
      }
      return row;
    },
  };
  keyReads.set(rt.entity, read);
  return read;
}

/**
 * The JS value MikroORM hydrates from a column value as its pg pool parses it (bigint as a string,
 * timestamps as strings: PostgreSqlConnection's type parsers): numbers for long (BigIntType
 * 'number'), Date for datetime (the platform's parseDate), the rest as the driver gives them.
 */
function converterOf(spec: ScalarField, platform: ReturnType<EntityManager['getPlatform']>): (value: unknown) => unknown {
  switch (spec.kind) {
    case 'long':
      return (value) => Number(value);
    case 'datetime':
      return (value) => (value instanceof Date ? value : platform.parseDate(value as string));
    default:
      return (value) => value;
  }
}

/** The condition that leaves soft-deleted records out (`{ deleted: false }`), or none. */
export function liveOnly(resource: Resource): Row {
  return resource.softDelete === undefined ? {} : { [resource.softDelete]: false };
}

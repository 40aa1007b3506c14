import { BigIntType, EntitySchema, type EntitySchemaProperty, type TriggerDef } from '@mikro-orm/core';
import { allFields, isScalar, tableOf, type KeyReference, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';
import type { SearchKind } from '@platform/kit/resource/search-kind.ts';
import { listIndexes } from './list-indexes.ts';
import { snake, type Row } from './row.ts';
import { tenantCountTriggers } from './tenant-count.ts';
import { tenantWall } from './tenant-wall.ts';

// the row type and column names as the CRUD engine, the services and the tests import them
export { snake, type Row } from './row.ts';

type Property = EntitySchemaProperty<unknown, Row>;

/**
 * The MikroORM entities of a service's resources, built from their declarations so that a field is
 * declared once. References become foreign keys that the migration diff knows (ON DELETE NO ACTION:
 * deleting a referenced row fails, and the engine answers 409 SVC-SYS-4003):
 * - `references` (same tenant, by id): every referenced table gets a unique key (cr_process_id, id)
 *   and the referencing table a composite key (cr_process_id, <field>) → (cr_process_id, id), so a
 *   record of another tenant is refused by the database, not by a check that a concurrent write
 *   could race past. The field stays a plain column (read, written and filtered as any other: as a
 *   relation over two columns MikroORM would compare it as a tuple); the key is a second, hidden
 *   property over the same two columns (`foreignKeyProperty`) that the code never sets;
 *   With `referencesService` the referenced table is another service's, in its schema of the same
 *   database: the key crosses the schemas, its target a stand-in entity of the columns it spans
 *   (`foreignTargetOf`), which the ORM's schema diff leaves alone (orm.ts: another schema's tables
 *   are that service's to migrate). That service declares the unique key the reference needs;
 * - `within` on a field whose scope field is optional (a partner's city within its country): a check
 *   that the scope is given with the field, since a key with an empty column is not checked (MATCH
 *   SIMPLE), so a city without its country would name anything;
 * - `referencesKey` (any tenant, by a globally unique key): the field is a many-to-one over its one
 *   column to the target's key, mapped to the key's value.
 * Every table gets the row-level security policy `tenant_wall` (tenant-wall.ts), or'ed with `walls`'
 * conditions of its resource's path where it has some (a user's own rows).
 *
 * @example
 * const schemas = entitySchemas([businessPartner, branch], 'bpm');
 * schemas.get('branch') // EntitySchema for table bpm.branch, FK branch_business_partner_id_foreign
 *
 * `triggers` adds a service's own triggers to the tables of some resources (by path): core's access
 * stamp (core-svc/src/access-stamp.ts) watches tables that are resources. `kinds` are the global
 * search's kinds (libs/contracts/src/search.ts): the fields they match by prefix get the prefix
 * index a list's prefix filter gets, one per column (db/prefix-index.ts).
 */
export function entitySchemas(
  resources: readonly Resource[],
  schema: string,
  triggers: Readonly<Record<string, TriggerDef<Row>[]>> = {},
  kinds: readonly SearchKind[] = [],
  walls: Readonly<Record<string, string[]>> = {},
): Map<string, EntitySchema<Row>> {
  // what same-tenant references name in each table: (crProcessId, id) or (crProcessId, within, id)
  const referenced = new Map<string, Map<string, string[]>>();
  const foreign = new Map<string, EntitySchema<Row>>();
  for (const resource of resources) {
    for (const [name, spec] of Object.entries(resource.fields)) {
      if (!isScalar(spec) || !spec.references) continue;
      if (isForeign(spec, schema)) {
        const key = foreignKeyOf(spec);
        if (!foreign.has(key)) foreign.set(key, foreignTargetOf(spec));
        continue;
      }
      const target = resources.find((other) => other.path === spec.references);
      if (spec.within && !(spec.within in resource.fields && target && spec.within in target.fields)) {
        throw new Error(`${resource.path}.${name}: within ${spec.within} must be a field of both ${resource.path} and ${spec.references}`);
      }
      const key = ['crProcessId', ...(spec.within ? [spec.within] : []), 'id'];
      const keys = referenced.get(spec.references) ?? new Map<string, string[]>();
      keys.set(key.join(','), key);
      referenced.set(spec.references, keys);
    }
  }
  const byPath = new Map<string, EntitySchema<Row>>();
  for (const resource of resources) {
    if (resource.tenantCount && resource.softDelete) throw new Error(`${resource.path}: tenantCount counts every row, so not with softDelete`);
    byPath.set(
      resource.path,
      buildSchema(
        resource,
        schema,
        byPath,
        foreign,
        [...(referenced.get(resource.path)?.values() ?? [])],
        triggers[resource.path] ?? [],
        kinds,
        walls[resource.path] ?? [],
      ),
    );
  }
  // the stand-ins go with the service's entities (MikroORM must discover a key's target)
  for (const [key, target] of foreign) byPath.set(key, target);
  return byPath;
}

function isForeign(spec: ScalarField, schema: string): boolean {
  return spec.referencesService !== undefined && spec.referencesService !== schema;
}

/** `core:city`: where the stand-in of another service's resource is kept among the entities. */
function foreignKeyOf(spec: ScalarField): string {
  return `${spec.referencesService}:${spec.references}`;
}

/**
 * Another service's table as far as a foreign key to it needs: id, cr_process_id and the `within`
 * column. Its table is the referenced path's (`tableOf` without a `table` of its own: the other
 * service's declaration is not imported here); test/reference-keys.test.ts finds the key's target
 * in the database's catalog and compares it with that declaration.
 */
function foreignTargetOf(spec: ScalarField): EntitySchema<Row> {
  const path = spec.references ?? '';
  const properties: Record<string, Property> = {
    id: { type: new BigIntType('number'), primary: true },
    crProcessId: { type: new BigIntType('number'), fieldName: 'cr_process_id' },
    ...(spec.within ? { [spec.within]: { type: new BigIntType('number'), fieldName: snake(spec.within), nullable: true } } : {}),
  };
  return new EntitySchema<Row>({
    name: `${pascal(spec.referencesService ?? '')}${pascal(path)}`,
    tableName: path.replace(/-/g, '_'),
    schema: spec.referencesService,
    properties: properties as never,
  });
}

function pascal(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, _dash: string, c: string) => c.toUpperCase());
}

/** The name of the foreign key a reference field declares; a violation of it names the field. */
export function foreignKeyName(resource: Resource, field: string): string {
  return `${tableOf(resource)}_${snake(field)}_foreign`;
}

/** The hidden property that carries a same-tenant reference's foreign key. */
export function foreignKeyProperty(field: string): string {
  return `${field}ForeignKey`;
}

function buildSchema(
  resource: Resource,
  schema: string,
  known: Map<string, EntitySchema<Row>>,
  foreign: Map<string, EntitySchema<Row>>,
  referencedKeys: string[][],
  own: TriggerDef<Row>[],
  kinds: readonly SearchKind[],
  wall: readonly string[],
): EntitySchema<Row> {
  const properties: Record<string, Property> = {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
  };
  const sameTenantKeys: Record<string, Property> = {};
  for (const [name, spec] of Object.entries(allFields(resource))) {
    if (name === 'id' || !isScalar(spec) || spec.computed) continue;
    const target = (path: string): (() => EntitySchema<Row>) => {
      // a tree (a category's parentId): the entity being built, once it is
      if (path === resource.path) return () => known.get(path) as EntitySchema<Row>;
      const entity = known.get(path);
      if (!entity) throw new Error(`${resource.path}.${name} references ${path}, which is declared after it or in another service`);
      return () => entity;
    };
    properties[name] = spec.referencesKey
      ? keyReferenceOf(resource, name, spec, spec.referencesKey, target(spec.referencesKey.resource))
      : propertyOf(name, spec);
    if (spec.references) {
      const referenced = isForeign(spec, schema) ? () => foreign.get(foreignKeyOf(spec)) as EntitySchema<Row> : target(spec.references);
      sameTenantKeys[foreignKeyProperty(name)] = sameTenantKeyOf(resource, name, referenced, spec.within);
    }
  }
  // after the columns they span: MikroORM takes a column's definition from its first property
  Object.assign(properties, sameTenantKeys);
  const uniques = Object.entries(resource.fields)
    .filter((entry): entry is [string, ScalarField] => isScalar(entry[1]) && entry[1].unique !== undefined)
    .map(([name, spec]) => (spec.unique === 'global' ? [name] : ['crProcessId', name]));
  for (const composite of resource.uniques ?? []) uniques.push(['crProcessId', ...composite]);
  // what same-tenant references name: (cr_process_id, id), or (cr_process_id, <within>, id)
  uniques.push(...referencedKeys);
  const table = tableOf(resource);
  return new EntitySchema<Row>({
    name: resource.name,
    tableName: table,
    schema,
    properties: properties as never,
    uniques: uniques.map((names) => ({ properties: names as never, name: `${table}_${names.map(snake).join('_')}_unique` })),
    indexes: [{ properties: ['crProcessId'] as never, name: `${table}_cr_process_id_index` }, ...(listIndexes(resource, schema, kinds) as never[])],
    // every resource is a tenant's: its row-level security policy (tenant-wall.ts), with the table's own additions
    policies: tenantWall(...wall),
    ...(resource.appendOnly || resource.tenantCount || own.length > 0
      ? {
          triggers: [
            ...(resource.appendOnly ? [appendOnlyTrigger(table)] : []),
            ...(resource.tenantCount ? tenantCountTriggers(resource, schema) : []),
            ...own,
          ],
        }
      : {}),
    checks: Object.entries(resource.fields).flatMap(([name, spec]) => [
      ...(isScalar(spec) && spec.notBefore
        ? [{ name: notBeforeCheckName(resource, name), property: name, expression: `${snake(name)} >= ${snake(spec.notBefore)}` }]
        : []),
      ...(isScalar(spec) && spec.within && !isRequired(resource, spec.within)
        ? [{ name: withinCheckName(resource, name), property: name, expression: `${snake(name)} is null or ${snake(spec.within)} is not null` }]
        : []),
    ]) as never,
  });
}

/** BEFORE UPDATE OR DELETE, per row: raises, so the statement fails and changes nothing. */
function appendOnlyTrigger(table: string): TriggerDef<Row> {
  return {
    name: `${table}_append_only`,
    timing: 'before',
    events: ['update', 'delete'],
    forEach: 'row',
    body: `raise exception '${table} is append-only' using errcode = 'insufficient_privilege';`,
  };
}

function isRequired(resource: Resource, field: string): boolean {
  const spec = resource.fields[field];
  return spec !== undefined && isScalar(spec) && spec.required === true;
}

/** The name of the check that a `within` field comes with its scope; a violation of it names the field. */
export function withinCheckName(resource: Resource, field: string): string {
  return `${tableOf(resource)}_${snake(field)}_within`;
}

/** The name of the check constraint of a `notBefore` field; a violation of it names the field. */
export function notBeforeCheckName(resource: Resource, field: string): string {
  return `${tableOf(resource)}_${snake(field)}_not_before`;
}

const NO_ACTION = { deleteRule: 'no action', updateRule: 'no action' } as const;

/**
 * (cr_process_id, <field>) → (cr_process_id, id) as a many-to-one over both columns (with `within`:
 * (cr_process_id, <within>, <field>) → (cr_process_id, <within>, id), over three): never set by
 * the code, so never written (the field and crProcessId write the columns); nullable, so that
 * MikroORM does not ask for it on create; `mapToPk`, so that loading a row makes no entity of it.
 */
function sameTenantKeyOf(resource: Resource, name: string, target: () => EntitySchema<Row>, within?: string): Property {
  const scope = within ? [snake(within)] : [];
  return {
    kind: 'm:1',
    entity: () => target() as never,
    mapToPk: true,
    nullable: true,
    joinColumns: ['cr_process_id', ...scope, snake(name)],
    referencedColumnNames: ['cr_process_id', ...scope, 'id'],
    foreignKeyName: foreignKeyName(resource, name),
    ...NO_ACTION,
  };
}

/** <field> → <target key>: the field itself as a many-to-one to the key, its value the key's. */
function keyReferenceOf(resource: Resource, name: string, spec: ScalarField, reference: KeyReference, target: () => EntitySchema<Row>): Property {
  return {
    kind: 'm:1',
    entity: () => target() as never,
    targetKey: reference.key as never,
    mapToPk: true,
    fieldName: snake(name),
    nullable: !spec.required,
    // a delete of the user looks for the rows naming it; a unique field has its index already
    ...(spec.unique === undefined ? { index: true } : {}),
    foreignKeyName: foreignKeyName(resource, name),
    ...NO_ACTION,
  };
}

/**
 * Whether a field's column may hold NULL: a generated one, or one neither required nor defaulted but
 * for the key, the version and the timestamps every write sets (a list's cursor places NULL by it:
 * crud/keyset.ts).
 */
export function columnNullable(name: string, spec: ScalarField): boolean {
  if (spec.generated) return true;
  return !spec.required && spec.default === undefined && name !== 'id' && name !== 'version' && name !== 'createdAt' && name !== 'updatedAt';
}

function propertyOf(name: string, spec: ScalarField): Property {
  const nullable = columnNullable(name, spec);
  // a reference's column is indexed (a delete of the referenced row looks for the rows naming it)
  const base = { nullable, fieldName: snake(name), ...(spec.references ? { index: true } : {}) };
  if (spec.generated) {
    // computed and stored by PostgreSQL; MikroORM neither inserts nor updates it, and reads it back
    if (spec.kind !== 'decimal') throw new Error(`${name}: only decimal fields may be generated`);
    // 38 digits: a product of two declared decimals (15 whole digits each) never overflows; the scale rounds it to money's 4 decimals
    return { type: 'decimal', precision: 38, scale: 4, nullable: true, fieldName: snake(name), generated: `(${spec.generated}) stored` };
  }
  const fallback = spec.default ?? (name === 'version' ? 0 : undefined);
  const withDefault = fallback === undefined ? base : { ...base, default: fallback };
  switch (spec.kind) {
    case 'string':
      return { type: 'string', length: spec.maxLength ?? 255, ...withDefault };
    case 'enum':
      return { type: 'string', length: 32, ...withDefault };
    case 'text':
      return { type: 'text', ...base };
    case 'long':
      return { type: new BigIntType('number'), ...withDefault };
    case 'int':
      return { type: 'integer', ...withDefault };
    case 'boolean':
      return { type: 'boolean', ...withDefault };
    case 'decimal':
      return { type: 'decimal', precision: 19, scale: 4, ...withDefault };
    case 'date':
      return { type: 'date', ...base };
    case 'datetime':
      return { type: 'datetime', columnType: 'timestamptz', ...base };
  }
}

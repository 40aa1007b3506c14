import { BigIntType, EntitySchema, type EntitySchemaProperty } from '@mikro-orm/core';
import { allFields, isScalar, tableOf, type Resource, type ScalarField } from '../crud/resource.ts';

/** A database row of a resource as MikroORM hydrates it: property name to JS value. */
export type Row = Record<string, unknown>;

type Property = EntitySchemaProperty<unknown, Row>;

/**
 * The MikroORM entities of a service's resources, built from their declarations so that a field is
 * declared once. Same-service references become foreign keys (ON DELETE NO ACTION: deleting a
 * referenced row fails, and the engine answers 409 SVC-SYS-4003).
 *
 * @example
 * const schemas = entitySchemas([businessPartner, branch], 'bpm');
 * schemas.get('branch') // EntitySchema for table bpm.branch
 */
export function entitySchemas(resources: readonly Resource[], schema: string): Map<string, EntitySchema<Row>> {
  const byPath = new Map<string, EntitySchema<Row>>();
  for (const resource of resources) byPath.set(resource.path, buildSchema(resource, schema, byPath));
  return byPath;
}

function buildSchema(resource: Resource, schema: string, known: Map<string, EntitySchema<Row>>): EntitySchema<Row> {
  const properties: Record<string, Property> = {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
  };
  for (const [name, spec] of Object.entries(allFields(resource))) {
    if (name === 'id' || !isScalar(spec)) continue;
    properties[name] = propertyOf(name, spec, known);
  }
  const uniques = Object.entries(resource.fields)
    .filter((entry): entry is [string, ScalarField] => isScalar(entry[1]) && entry[1].unique !== undefined)
    .map(([name, spec]) => (spec.unique === 'global' ? [name] : ['crProcessId', name]));
  for (const composite of resource.uniques ?? []) uniques.push(['crProcessId', ...composite]);
  const table = tableOf(resource);
  return new EntitySchema<Row>({
    name: resource.name,
    tableName: table,
    schema,
    properties: properties as never,
    uniques: uniques.map((names) => ({ properties: names as never, name: `${table}_${names.map(snake).join('_')}_unique` })),
    indexes: [{ properties: ['crProcessId'] as never, name: `${table}_cr_process_id_index` }],
  });
}

function propertyOf(name: string, spec: ScalarField, known: Map<string, EntitySchema<Row>>): Property {
  const nullable = !spec.required && spec.default === undefined && name !== 'version' && name !== 'createdAt' && name !== 'updatedAt';
  const base = { nullable, fieldName: snake(name) };
  if (spec.references) {
    const target = known.get(spec.references);
    if (!target) throw new Error(`${name} references ${spec.references}, which is declared after it or in another service`);
    return { kind: 'm:1', entity: () => target as never, mapToPk: true, deleteRule: 'no action', updateRule: 'no action', ...base, index: true };
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

export function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

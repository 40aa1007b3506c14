/**
 * The API document carries the label catalogue (docs/adr/0117-labels-catalogue-beside-the-declaration.md):
 * every record schema names its entity, singular and plural, and every property of a record, create
 * and update schema (an item field of a list of objects too) its field, in English and in Turkish
 * (`x-labels`); every enum property names
 * each of its values in both (`x-enum-labels`). test/labels-catalogue.test.ts holds the catalogue
 * to that; this file holds the document GET /api/docs/openapi.json serves, built from the same
 * registry, so a field or value that reaches the document without its words fails here.
 */
import test from 'ava';
import type { SchemaObject } from 'openapi3-ts/oas31';
import { LANGUAGES } from '@platform/kit/resource/labels.ts';
import { registry } from '../gateway/src/registry.ts';
import { buildOpenApiDocument } from '../gateway/src/openapi/document.ts';
import { schemaNames } from '../gateway/src/openapi/record-schemas.ts';
import { api } from './helpers/platform.ts';

const document = buildOpenApiDocument(registry);
const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;

/** A text in every language, each neither blank nor missing. */
function inBoth(where: string, texts: unknown, key?: string): string[] {
  const problems: string[] = [];
  for (const language of LANGUAGES) {
    const inLanguage = (texts as Record<string, unknown> | undefined)?.[language];
    const text = key === undefined ? inLanguage : (inLanguage as Record<string, unknown> | undefined)?.[key];
    if (typeof text !== 'string' || !/\S/.test(text)) problems.push(`${where}: no ${language} text`);
  }
  return problems;
}

/** A schema's properties, and the item fields of each list of objects as `<field>.<item>`. */
function propertiesOf(schema: SchemaObject): [string, SchemaObject][] {
  return Object.entries((schema.properties ?? {}) as Record<string, SchemaObject>).flatMap(([field, property]): [string, SchemaObject][] => {
    const items = property.items as SchemaObject | undefined;
    const itemFields = Object.entries((items?.properties ?? {}) as Record<string, SchemaObject>).map(([item, each]): [string, SchemaObject] => [
      `${field}.${item}`,
      each,
    ]);
    return [[field, property], ...itemFields];
  });
}

/** The enum values a property may take (an optional one's `null` is no value to name). */
function enumValues(property: SchemaObject): unknown[] {
  const own = property.enum ?? [];
  const alternatives = [...(property.anyOf ?? []), ...(property.oneOf ?? [])] as SchemaObject[];
  return [...own, ...alternatives.flatMap((each) => each.enum ?? [])].filter((value) => value !== null);
}

test('every record schema of the API document names its entity, singular and plural, in English and in Turkish', (t) => {
  const problems = registry.flatMap((resource) => {
    const record = schemas[schemaNames(resource).record];
    if (!record) return [`${resource.path}: no record schema`];
    const labels = record['x-labels'] as unknown;
    return [...inBoth(`${resource.path}`, labels, 'one'), ...inBoth(`${resource.path} (plural)`, labels, 'other')];
  });
  t.deepEqual(problems, []);
});

test('every property of a record, create and update schema carries its label, and every enum value its words, in both languages', (t) => {
  const problems: string[] = [];
  let properties = 0;
  let values = 0;
  for (const resource of registry) {
    const names = schemaNames(resource);
    for (const name of [names.record, names.create, names.update]) {
      const schema = schemas[name];
      if (!schema) continue;
      for (const [field, property] of propertiesOf(schema)) {
        properties++;
        const where = `${name}.${field}`;
        problems.push(...inBoth(where, property['x-labels']));
        if (typeof property.title !== 'string' || property.title !== (property['x-labels'] as Record<string, string> | undefined)?.en) {
          problems.push(`${where}: its title is not its English label`);
        }
        const enumLabels = property['x-enum-labels'] as Record<string, unknown> | undefined;
        for (const value of enumValues(property)) {
          values++;
          problems.push(...inBoth(`${where} = ${String(value)}`, enumLabels?.[String(value)]));
        }
      }
    }
  }
  t.deepEqual(problems, []);
  t.true(properties > 500, `only ${properties} properties looked at`);
  t.true(values > 20, `only ${values} enum values looked at`);
});

test('the document the gateway serves is the one built from the registry, with its words', async (t) => {
  const served = await api('GET', '/api/docs/openapi.json');
  t.is(served.status, 200);
  const servedSchemas = (served.body as typeof document).components?.schemas as Record<string, SchemaObject>;
  for (const resource of registry) {
    const name = schemaNames(resource).record;
    t.deepEqual(servedSchemas[name]?.['x-labels'], schemas[name]?.['x-labels'], name);
  }
});

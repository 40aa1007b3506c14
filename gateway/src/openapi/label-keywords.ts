import type { SchemaObject } from 'openapi3-ts/oas31';
import { fieldTexts, helpTexts, LANGUAGES, valueTexts } from '@platform/kit/resource/labels.ts';
import { isScalar, type FieldSpec, type Resource } from '@platform/kit/resource/resource.ts';

/**
 * The catalogue's words in the API document (docs/adr/0117-labels-catalogue-beside-the-declaration.md),
 * so a client names entities, fields and values as the console does: a record schema's
 * `x-labels` (`{ en: { one, other }, tr: … }`); a property's `title` (English), `x-labels`
 * (`{ en, tr }`), `x-help` where the catalogue has help, and an enum's `x-enum-labels` (value →
 * `{ en, tr }`). JSON Schema ignores `x-` keywords, so validation is unchanged.
 */
export function recordLabels(resource: Resource): SchemaObject {
  return {
    'x-labels': Object.fromEntries(LANGUAGES.map((language) => [language, { one: resource.labels[language].one, other: resource.labels[language].other }])),
  };
}

/**
 * An `objects` property's item schema with each item field's keywords, from the catalogue's
 * `<field>.<item>` entries (item fields written by `of`, and those only read, `shown`).
 */
export function itemLabels(resource: Resource, name: string, spec: FieldSpec, schema: SchemaObject): SchemaObject {
  const items = schema.items as SchemaObject | undefined;
  if (spec.kind !== 'objects' || !items?.properties) return schema;
  const specs = { ...spec.shown, ...spec.of };
  const properties = Object.fromEntries(
    Object.entries(items.properties).map(([item, property]) => {
      const itemSpec = specs[item];
      return [item, itemSpec ? { ...(property as SchemaObject), ...fieldLabels(resource, `${name}.${item}`, itemSpec) } : property];
    }),
  );
  return { ...schema, items: { ...items, properties } };
}

/** A property's keywords: its label in every language, its help and its values' labels where it has them. */
export function fieldLabels(resource: Resource, name: string, spec: FieldSpec): SchemaObject {
  const label = fieldTexts(resource.labels, name);
  const help = helpTexts(resource.labels, name);
  const values = isScalar(spec) && spec.values ? valueTexts(resource.labels, name, spec.values) : undefined;
  return {
    ...(label && { title: label.en, 'x-labels': label }),
    ...(help && { 'x-help': help }),
    ...(values && { 'x-enum-labels': values }),
  };
}

import type { ConsoleField, ConsoleManifest, ConsoleRelated, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { fieldTexts, helpTexts, valueTexts, type ResourceLabels, type Texts } from '@platform/kit/resource/labels.ts';
import { apiFields, isScalar, offers, RANGE_KINDS, type FieldSpec, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';
import { throughFilters } from '@platform/kit/resource/through-filters.ts';

/**
 * What GET /console/resources.json answers: every resource of the registry as the console renders
 * it (libs/contracts/src/console/manifest.ts), so that a new resource needs no console code.
 * Computed once, at start.
 */
export function consoleManifest(registry: readonly Resource[], login: ConsoleManifest['login']): ConsoleManifest {
  return { resources: registry.map((resource) => consoleResource(resource, relatedOf(registry, resource), registry)), login };
}

/**
 * The records that refer to `target`: every reference field of the registry that names it (by
 * `references` or `referencesKey`) and declares no `noRelatedList`, and every field that names a
 * record of any resource (`recordOf`: a file's entityId), of a resource with a list, and every
 * filter through a reference whose referenced field names it (a partner's accruals, through their
 * contracts: docs/adr/0141-a-list-filters-through-a-reference.md). So a new resource's references
 * give their related lists with no console code.
 */
export function relatedOf(registry: readonly Resource[], target: Resource): ConsoleRelated[] {
  const related: ConsoleRelated[] = [];
  for (const resource of registry) {
    if (!offers(resource, 'list')) continue;
    for (const [field, spec] of Object.entries(resource.fields)) {
      if (!isScalar(spec) || spec.noRelatedList !== undefined) continue;
      const reference = referenceOf(spec);
      if (reference?.resource === target.path) related.push({ resource: resource.path, field, key: reference.key });
      else if (spec.recordOf !== undefined && resource !== target && offers(target, 'get')) {
        related.push({ resource: resource.path, field, key: 'id', type: { field: spec.recordOf, value: target.path } });
      }
    }
    for (const { name, via, spec } of throughFilters(resource, registry)) {
      const reference = spec.noRelatedList === undefined ? referenceOf(spec) : undefined;
      if (reference?.resource === target.path) related.push({ resource: resource.path, field: name, key: reference.key, through: via });
    }
  }
  return related;
}

function consoleResource(resource: Resource, related: ConsoleRelated[], registry: readonly Resource[]): ConsoleResource {
  const view = resource.list;
  const fields = Object.entries(apiFields(resource)).map(([name, spec]) => {
    const field = consoleField(resource.labels, name, spec);
    const match = view?.match?.[name];
    const currencyField = view?.money?.[name];
    return { ...field, ...(match ? { match } : {}), ...(currencyField ? { currencyField } : {}) };
  });
  const labels = { one: { en: resource.labels.en.one, tr: resource.labels.tr.one }, other: { en: resource.labels.en.other, tr: resource.labels.tr.other } };
  return {
    path: resource.path,
    name: resource.name,
    plural: resource.plural,
    labels,
    // the menu reads as the plural: one name, declared once
    menu: resource.menu && { area: resource.menu.area, label: labels.other },
    key: resource.key ?? 'id',
    display: displayField(resource),
    operations: {
      get: offers(resource, 'get'),
      create: offers(resource, 'create'),
      update: offers(resource, 'update'),
      delete: offers(resource, 'delete'),
      list: offers(resource, 'list'),
      stats: offers(resource, 'stats'),
    },
    fields,
    related,
    sections: resource.form?.sections ?? [],
    columns: view?.columns ?? defaultColumns(resource),
    filters: view?.filters ?? [],
    // a filter, not a field of the record: named and checked as the referenced field is
    through: throughFilters(resource, registry).map(({ name, via, target, spec }) => ({
      ...consoleField(target.labels, name, { ...spec, required: false, readOnly: false, immutable: false, default: undefined }),
      through: via,
    })),
  };
}

/** Without a declared list: the resource's own shown scalar fields, the first six. */
function defaultColumns(resource: Resource): string[] {
  return Object.entries(resource.fields)
    .filter(([, spec]) => isScalar(spec) && !spec.writeOnly && !spec.secret)
    .map(([name]) => name)
    .slice(0, 6);
}

/**
 * A field as the console shows it, with its words from the resource's catalogue (`labels`; an item
 * field of an `objects` field is named `<field>.<item>` there). A field the catalogue lacks (which
 * test/labels-catalogue.test.ts refuses) reads as its name.
 */
function consoleField(labels: ResourceLabels, name: string, spec: FieldSpec, path = name): ConsoleField {
  const label: Texts = fieldTexts(labels, path) ?? { en: name, tr: name };
  const help = helpTexts(labels, path);
  if (spec.kind === 'objects') {
    return {
      name,
      kind: 'objects',
      label,
      ...(help && { help }),
      required: spec.required,
      sortable: false,
      range: false,
      of: Object.entries(spec.of).map(([item, s]) => consoleField(labels, item, s, `${name}.${item}`)),
    };
  }
  if (spec.kind === 'strings') {
    return { name, kind: 'strings', label, ...(help && { help }), required: spec.required, maxLength: spec.maxLength, sortable: false, range: false };
  }
  const field: ConsoleField = {
    name,
    kind: spec.kind,
    label,
    help,
    required: spec.required,
    readOnly: spec.readOnly || spec.computed || spec.generated !== undefined || undefined,
    writeOnly: spec.writeOnly,
    immutable: spec.immutable,
    secret: spec.secret,
    values: spec.values,
    valueLabels: spec.values && valueTexts(labels, path, spec.values),
    min: spec.min,
    max: spec.max,
    maxLength: spec.maxLength,
    pattern: spec.pattern,
    default: spec.default,
    references: referenceOf(spec),
    sortable: !spec.writeOnly && !spec.computed,
    range: !spec.writeOnly && !spec.computed && RANGE_KINDS.has(spec.kind),
    searchable: spec.searchable,
  };
  // undefined keys dropped: the answer stays small
  return Object.fromEntries(Object.entries(field).filter(([, value]) => value !== undefined)) as unknown as ConsoleField;
}

function referenceOf(spec: ScalarField): ConsoleField['references'] {
  if (spec.references) return { resource: spec.references, key: 'id' };
  if (spec.referencesKey) {
    const { resource, key, candidates } = spec.referencesKey;
    return candidates ? { resource, key, candidates } : { resource, key };
  }
  return undefined;
}

/**
 * The field that names a record to people: the first searchable text field of its own (a partner's
 * name, a branch's name), else its path key. Names come before codes: `...Name` first.
 */
function displayField(resource: Resource): string {
  const texts = Object.entries(resource.fields).filter(
    (entry): entry is [string, ScalarField] =>
      isScalar(entry[1]) && (entry[1].kind === 'string' || entry[1].kind === 'text') && !entry[1].writeOnly && !entry[1].secret,
  );
  const named = texts.find(([name]) => /name$/i.test(name)) ?? texts.find(([, spec]) => spec.searchable) ?? texts.find(([, spec]) => spec.unique);
  return named?.[0] ?? resource.key ?? 'id';
}

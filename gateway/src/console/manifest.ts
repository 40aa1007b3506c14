import type { ConsoleField, ConsoleManifest, ConsoleRelated, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { apiFields, isScalar, offers, RANGE_KINDS, type FieldSpec, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';

/**
 * What GET /console/resources.json answers: every resource of the registry as the console renders
 * it (libs/contracts/src/console/manifest.ts), so that a new resource needs no console code.
 * Computed once, at start.
 */
export function consoleManifest(registry: readonly Resource[], login: ConsoleManifest['login']): ConsoleManifest {
  return { resources: registry.map((resource) => consoleResource(resource, relatedOf(registry, resource))), login };
}

/**
 * The records that refer to `target`: every reference field of the registry that names it (by
 * `references` or `referencesKey`) and declares no `noRelatedList`, and every field that names a
 * record of any resource (`recordOf`: a file's entityId), of a resource with a list. So a new
 * resource's references give their related lists with no console code.
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
  }
  return related;
}

function consoleResource(resource: Resource, related: ConsoleRelated[]): ConsoleResource {
  const fields = Object.entries(apiFields(resource)).map(([name, spec]) => consoleField(name, spec));
  return {
    path: resource.path,
    name: resource.name,
    plural: resource.plural,
    menu: resource.menu,
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
  };
}

function consoleField(name: string, spec: FieldSpec): ConsoleField {
  if (spec.kind === 'objects') {
    return {
      name,
      kind: 'objects',
      required: spec.required,
      sortable: false,
      range: false,
      of: Object.entries(spec.of).map(([item, s]) => consoleField(item, s)),
    };
  }
  if (spec.kind === 'strings') return { name, kind: 'strings', required: spec.required, maxLength: spec.maxLength, sortable: false, range: false };
  const field: ConsoleField = {
    name,
    kind: spec.kind,
    required: spec.required,
    readOnly: spec.readOnly || spec.computed || spec.generated !== undefined || undefined,
    writeOnly: spec.writeOnly,
    immutable: spec.immutable,
    secret: spec.secret,
    values: spec.values,
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

import { apiFields, isScalar, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';
import { fieldTexts, LANGUAGES } from '@platform/kit/resource/labels.ts';
import { fold } from './fold.ts';

/** The fields an import may fill: the resource's writable scalars, but its tenant, which the run names. */
export function importableFields(resource: Resource): [string, ScalarField][] {
  return Object.entries(apiFields(resource)).filter(
    (entry): entry is [string, ScalarField] =>
      isScalar(entry[1]) &&
      !entry[1].readOnly &&
      !entry[1].computed &&
      entry[1].generated === undefined &&
      entry[0] !== 'crProcessId' &&
      !NOT_WRITTEN.has(entry[0]),
  );
}

const NOT_WRITTEN = new Set(['id', 'version', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

/**
 * The column-to-field mapping an import proposes for a file's header (docs/interface.md#import):
 * each header matched to the field whose name, English label or Turkish label folds to the same
 * word (fold.ts), else null (the column is not imported). A field is taken by its first column.
 *
 * @example
 * proposeMapping(businessPartner, ['Ortak kodu', 'Partner name', 'partnerType', 'Notes']) // ['partnerCode', 'partnerName', 'partnerType', null]
 */
export function proposeMapping(resource: Resource, header: readonly string[]): (string | null)[] {
  const byWord = new Map<string, string>();
  for (const [name] of importableFields(resource)) {
    const texts = fieldTexts(resource.labels, name);
    for (const word of [name, ...LANGUAGES.map((language) => texts?.[language] ?? '')]) {
      const folded = fold(word);
      if (folded !== '' && !byWord.has(folded)) byWord.set(folded, name);
    }
  }
  const taken = new Set<string>();
  return header.map((column) => {
    const field = byWord.get(fold(column));
    if (field === undefined || taken.has(field)) return null;
    taken.add(field);
    return field;
  });
}

/**
 * A mapping a client sent, checked against the header's width and the importable fields: each entry
 * a field's name or null, no field twice. Returns the reason it is refused, or undefined.
 */
export function mappingProblem(resource: Resource, width: number, mapping: readonly (string | null)[]): string | undefined {
  if (mapping.length !== width) return `the mapping has ${mapping.length} entries for ${width} columns`;
  const fields = new Set(importableFields(resource).map(([name]) => name));
  const seen = new Set<string>();
  for (const field of mapping) {
    if (field === null) continue;
    if (!fields.has(field)) return `${field} is not a field an import may fill`;
    if (seen.has(field)) return `${field} is mapped twice`;
    seen.add(field);
  }
  return undefined;
}

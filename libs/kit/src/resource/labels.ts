import type { COMMON_FIELDS, FieldSpec } from './fields.ts';

/** The languages the platform speaks to people (docs/interface.md#labels). */
export const LANGUAGES = ['en', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** One text in every language: `{ en: 'Customer', tr: 'Müşteri' }`. */
export type Texts = Readonly<Record<Language, string>>;

type CommonName = keyof typeof COMMON_FIELDS;

/** The values of an `enum` field spec, or never. */
type EnumValues<S> = S extends { kind: 'enum'; values: readonly (infer V extends string)[] } ? V : never;

/** The names of the `enum` fields among `F`. */
type EnumFields<F> = { [K in keyof F & string]: [EnumValues<F[K]>] extends [never] ? never : K }[keyof F & string];

/** The fields an `objects` field's items are read with: those written (`of`) and those only shown. */
type ItemNames<S> = S extends { kind: 'objects'; of: infer O } ? (keyof O & string) | (S extends { shown: infer R } ? keyof R & string : never) : never;

/** `userProcessSelects.accountNo`: the item fields of each `objects` field of `F`. */
type ItemFields<F> = { [K in keyof F & string]: [ItemNames<F[K]>] extends [never] ? never : `${K}.${ItemNames<F[K]>}` }[keyof F & string];

/**
 * What people read of a resource in one language, declared against its fields `F`: every field of
 * its own and every `objects` item field needs a label, and every value of every `enum` field one
 * (a missing one is a compile error); the common fields take COMMON_LABELS unless named here.
 */
export type LanguageLabels<F> = {
  /** The entity's name, singular ("Business partner") and plural ("Business partners": its menu entry). */
  one: string;
  other: string;
  fields: { readonly [K in Exclude<keyof F & string, CommonName> | ItemFields<F>]: string } & { readonly [K in CommonName]?: string };
  /**
   * Help for the person filling in a field, where it says more than the label. The field's `doc`
   * tells API readers what travels on the wire; the help tells a clerk what to enter, so neither
   * repeats the other (docs/adr/0117-labels-catalogue-beside-the-declaration.md).
   */
  help?: { readonly [K in keyof F & string]?: string };
} & ([EnumFields<F>] extends [never] ? { values?: never } : { values: { readonly [K in EnumFields<F>]: { readonly [V in EnumValues<F[K]>]: string } } });

/** The catalogue of one resource as read at run time, whatever its fields. */
export interface CatalogueLabels {
  one: string;
  other: string;
  fields: Readonly<Record<string, string>>;
  values?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  help?: Readonly<Record<string, string>>;
}

/** A resource's labels in every language, typed against its fields where they are known. */
export type ResourceLabels<F = Record<string, FieldSpec>> = string extends keyof F
  ? Readonly<Record<Language, CatalogueLabels>>
  : Readonly<Record<Language, LanguageLabels<F>>>;

/** The labels of the fields every record has (docs/interface.md#records); a resource may name them otherwise. */
export const COMMON_LABELS: Readonly<Record<Language, Readonly<Record<CommonName, string>>>> = {
  en: {
    id: 'ID',
    version: 'Version',
    crProcessId: 'Tenant',
    status: 'Status',
    createdAt: 'Created',
    updatedAt: 'Updated',
    createdBy: 'Created by',
    updatedBy: 'Updated by',
  },
  tr: {
    id: 'Kimlik',
    version: 'Sürüm',
    crProcessId: 'Kiracı',
    status: 'Durum',
    createdAt: 'Oluşturulma',
    updatedAt: 'Güncellenme',
    createdBy: 'Oluşturan',
    updatedBy: 'Güncelleyen',
  },
};

/**
 * A field's label in every language: the resource's own, else the common one. `undefined` when
 * the catalogue has none (test/labels-catalogue.test.ts fails for it).
 *
 * @example
 * fieldTexts(businessPartner.labels, 'partnerType') // { en: 'Partner type', tr: 'Ortak türü' }
 */
export function fieldTexts(labels: ResourceLabels, field: string): Texts | undefined {
  const pick = (language: Language) => labels[language].fields[field] ?? (COMMON_LABELS[language] as Record<string, string>)[field];
  const en = pick('en');
  const tr = pick('tr');
  return en === undefined || tr === undefined ? undefined : { en, tr };
}

/** A field's help in every language, when it has one in both. */
export function helpTexts(labels: ResourceLabels, field: string): Texts | undefined {
  const en = labels.en.help?.[field];
  const tr = labels.tr.help?.[field];
  return en === undefined || tr === undefined ? undefined : { en, tr };
}

/** The labels of an `enum` field's values in every language, by value. */
export function valueTexts(labels: ResourceLabels, field: string, values: readonly string[]): Record<string, Texts> | undefined {
  const out: Record<string, Texts> = {};
  for (const value of values) {
    const en = labels.en.values?.[field]?.[value];
    const tr = labels.tr.values?.[field]?.[value];
    if (en === undefined || tr === undefined) return undefined;
    out[value] = { en, tr };
  }
  return out;
}

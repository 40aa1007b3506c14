/**
 * How a resource's list is shown to people and which of its text fields match by more than
 * equality: one `list` property per declaration (docs/adr/0118-a-list-declares-its-columns.md,
 * docs/adr/0119-text-filters-match-by-prefix-or.md, docs/adr/0120-money-and-dates-one-format.md).
 */

/**
 * How a text filter matches, besides equality (which `filter.<field>` keeps, docs/interface.md#lists):
 * `prefix` as `filter.<field>Prefix` (codes, tax numbers: "BP-12" finds "BP-1234"), `contains` as
 * `filter.<field>Contains` (names: "lojist" finds "Kartal Lojistik"); both case-insensitive with
 * I, ı, İ and i alike (as `searchTerm`), every character literal. Each is served by an index
 * (list-indexes.ts; a prefix shares its fold and its index with the global search: prefix-index.ts).
 */
export type TextMatch = 'prefix' | 'contains';

/** The filter key suffix of each match. */
export const MATCH_SUFFIX = { prefix: 'Prefix', contains: 'Contains' } as const satisfies Record<TextMatch, string>;

/**
 * A filter through a reference (docs/adr/0141-a-list-filters-through-a-reference.md): under its name
 * `N`, `filter.<N>` keeps the records whose reference `via` names a record whose own field `N`
 * holds the value (an accrual's `businessPartnerId`: the accruals whose contract is the partner's).
 * `via` is a same-service reference, so the service answers it by one subquery on the referenced
 * table within the tenant; the referenced field gives the filter its kind, its words and, when it
 * is a reference itself, a related list on its target's page (gateway/src/console/manifest.ts).
 */
export interface ThroughFilter<R extends string = string> {
  via: R;
}

/**
 * A resource's list as people see it. `F` is every field name of the resource (its own and the
 * common ones), `T` its text fields, `D` its decimal fields, `R` its reference fields and `N` the
 * names of its filters through a reference, so a misspelt name is a compile error.
 *
 * @example
 * list: {
 *   columns: ['partnerCode', 'partnerName', 'partnerType', 'taxNumber', 'status'],
 *   filters: ['partnerCode', 'partnerName', 'partnerType', 'taxNumber', 'status'],
 *   match: { partnerCode: 'prefix', taxNumber: 'prefix', partnerName: 'contains' },
 * }
 */
export interface ListView<
  F extends string = string,
  T extends string = string,
  D extends string = string,
  R extends string = string,
  N extends string = string,
> {
  /** The columns a list shows until its user chooses others, in order; the rest are offered by the column chooser. */
  columns: readonly F[];
  /** The filters shown at once, in order (fields, or filters `through` a reference); every other filterable field is behind "more filters". */
  filters: readonly (F | NoInfer<N>)[];
  /** Text fields matched by prefix or containment (`filter.<field>Prefix` / `filter.<field>Contains`). */
  match?: { readonly [K in T]?: TextMatch };
  /** Decimal fields that are money, each with the field that holds its ISO 4217 currency code. */
  money?: { readonly [K in D]?: T };
  /** Filters through a reference, by name: `{ businessPartnerId: { via: 'contractId' } }` (ThroughFilter). */
  through?: { readonly [K in N]: ThroughFilter<R> };
}

/** The names of `Fields` whose declaration is of one of `Kinds`. */
export type FieldsOfKind<Fields, Kinds extends string> = {
  [K in keyof Fields]: Fields[K] extends { kind: infer Kind } ? (Kind extends Kinds ? K : never) : never;
}[keyof Fields] &
  string;

/** The filter keys a match adds, by field: `{ partnerCodePrefix: 'partnerCode' }`. */
export function matchFilters(view: ListView | undefined): ReadonlyMap<string, { field: string; match: TextMatch }> {
  const keys = new Map<string, { field: string; match: TextMatch }>();
  for (const [field, match] of Object.entries(view?.match ?? {})) {
    if (match) keys.set(`${field}${MATCH_SUFFIX[match]}`, { field, match });
  }
  return keys;
}

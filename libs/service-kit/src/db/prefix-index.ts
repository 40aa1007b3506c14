/**
 * Matching a text column by prefix, spelled once for every query that does it and for the index
 * that answers it: a list's `<field>Prefix` filter (crud/text-match.ts,
 * docs/adr/0119-text-filters-match-by-prefix-or.md) and the global search's code and short-name
 * prefix (search/search.ts, docs/adr/0116-global-search-fans-out.md). A btree answers
 * `<folded column> LIKE 'x%'` as a range only when it is over that very expression, so the
 * expression, the pattern and the index live here together.
 */
import { tableOf, type Resource } from '@platform/kit/resource/resource.ts';
import type { SearchKind } from '@platform/kit/resource/search-kind.ts';
import { snake } from './row.ts';

/** What LIKE gives a meaning (PostgreSQL's default escape is the backslash): each is escaped to stand for itself. */
const LIKE_SPECIAL = /[\\%_]/g;
/** I with and without its dot, as capitals and the dotless small ı: read as a plain i. */
const TURKISH_I = /[İIı]/g;

/**
 * A column folded for prefix matching: lower case, with I, İ and ı all read as i (as searchTerm
 * folds them: docs/adr/0100-searchterm-folds-the-dotted.md), so "IŞIK", "ışık" and "işik" are one
 * prefix of "Işık" whatever the database's locale makes of them. `column` is the column as the
 * statement names it (`"partner_code"`, `e0."partner_code"`).
 *
 * @example
 * foldedColumn('"partner_code"') // lower(translate("partner_code", 'İIı', 'iii'))
 */
export function foldedColumn(column: string): string {
  return `lower(translate(${column}, 'İIı', 'iii'))`;
}

/**
 * The term folded as foldedColumn folds a column, `\`, `%` and `_` escaped, with `%` after it: the
 * LIKE pattern of a prefix, which the prefix index answers as a range.
 *
 * @example
 * prefixPattern('IŞ_1') // 'iş\\_1%'
 */
export function prefixPattern(term: string): string {
  return `${term
    .replace(TURKISH_I, 'i')
    .toLowerCase()
    .replace(LIKE_SPECIAL, (c) => `\\${c}`)}%`;
}

/** The fields of a search kind matched by prefix through an index: its code, and its names where the resource is declared large (`searchIndex`). */
export function searchPrefixFields(kind: SearchKind): string[] {
  return [...(kind.code ? [kind.code] : []), ...(kind.resource.searchIndex ? kind.name : [])];
}

/**
 * The fields of a resource that get a prefix index, each once: those its list matches by prefix
 * (`list.match`) and those the search kinds over it match by prefix (searchPrefixFields).
 */
export function prefixIndexFields(resource: Resource, kinds: readonly SearchKind[] = []): string[] {
  const listed = Object.entries(resource.list?.match ?? {})
    .filter(([, match]) => match === 'prefix')
    .map(([field]) => field);
  const searched = kinds.filter((kind) => kind.resource.path === resource.path).flatMap(searchPrefixFields);
  return [...new Set([...listed, ...searched])];
}

/** The name of a field's prefix index: `<table>_cr_process_id_<column>_prefix_index`. */
export function prefixIndexName(resource: Resource, field: string): string {
  return `${tableOf(resource)}_cr_process_id_${snake(field)}_prefix_index`;
}

/**
 * The prefix indexes of a resource (prefixIndexFields), as raw DDL since MikroORM has no operator
 * classes: a btree over (cr_process_id, folded column text_pattern_ops), `text_pattern_ops` so
 * that LIKE 'x%' is a range whatever the database's collation, including the column itself so
 * that a count reads the index alone (PostgreSQL scans an expression index index-only only when it
 * holds the columns the expression reads).
 */
export function prefixIndexes(resource: Resource, schema: string, kinds: readonly SearchKind[] = []): { name: string; expression: string }[] {
  const table = tableOf(resource);
  return prefixIndexFields(resource, kinds).map((field) => {
    const name = prefixIndexName(resource, field);
    const column = `"${snake(field)}"`;
    return {
      name,
      expression: `create index "${name}" on "${schema}"."${table}" ("cr_process_id", ${foldedColumn(column)} text_pattern_ops) include (${column})`,
    };
  });
}

/**
 * The SQL of the global search (docs/adr/0116-global-search-fans-out.md) that its queries and its
 * indexes must spell alike: a code or short name is matched by prefix through a btree over the
 * folded column, `text_pattern_ops` so that any collation's LIKE 'x%' uses it.
 */
import type { SearchKind } from '@platform/kit/resource/search-kind.ts';
import { tableOf, type Resource } from '@platform/kit/resource/resource.ts';
import type { IndexDef } from '../db/list-indexes.ts';
import { snake } from '../db/row.ts';

/**
 * A column folded for prefix matching: lower case, with I, İ and ı all read as i (as searchTerm
 * folds them: docs/adr/0100-searchterm-folds-the-dotted.md), so "IŞIK", "ışık" and "işik" are one
 * prefix of "Işık". The prefix indexes are over this very expression.
 */
export function foldedColumn(field: string): string {
  return `lower(translate("${snake(field)}", 'İIı', 'iii'))`;
}

/** The term folded as foldedColumn folds a column, escaped for LIKE, with `%` after it: a prefix pattern. */
export function prefixPattern(term: string): string {
  return `${term
    .replace(/[İIı]/g, 'i')
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The fields of a kind matched by prefix through an index: its code, and its names where the resource is declared large (`searchIndex`). */
export function prefixFields(kind: SearchKind): string[] {
  return [...(kind.code ? [kind.code] : []), ...(kind.resource.searchIndex ? kind.name : [])];
}

/** The name of the prefix index of a field. */
export function prefixIndexName(resource: Resource, field: string): string {
  return `${tableOf(resource)}_${snake(field)}_prefix_index`;
}

/**
 * The prefix indexes of the kinds whose resource is in `schema`'s service, by resource path: one
 * btree (cr_process_id, folded column text_pattern_ops) per prefixFields entry.
 */
export function searchIndexes(kinds: readonly SearchKind[], schema: string): Map<string, IndexDef[]> {
  const indexes = new Map<string, IndexDef[]>();
  for (const kind of kinds) {
    const table = tableOf(kind.resource);
    const own = prefixFields(kind).map((field) => {
      const name = prefixIndexName(kind.resource, field);
      return { name, expression: `create index "${name}" on "${schema}"."${table}" ("cr_process_id", ${foldedColumn(field)} text_pattern_ops)` };
    });
    if (own.length > 0) indexes.set(kind.resource.path, own);
  }
  return indexes;
}

/**
 * `resources` with the search's prefix indexes among their work indexes, for the service's entity
 * schemas (what its migrations must build): the declarations themselves are left as they are.
 */
export function withSearchIndexes<R extends Resource>(resources: readonly R[], kinds: readonly SearchKind[], schema: string): R[] {
  const indexes = searchIndexes(
    kinds.filter((kind) => resources.includes(kind.resource as R)),
    schema,
  );
  return resources.map((resource) => {
    const own = indexes.get(resource.path);
    return own ? { ...resource, workIndexes: [...(resource.workIndexes ?? []), ...own.map(({ name, expression = '' }) => ({ name, expression }))] } : resource;
  });
}

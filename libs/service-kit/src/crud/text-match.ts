import { raw, type FilterQuery } from '@mikro-orm/postgresql';
import type { TextMatch } from '@platform/kit/resource/list-view.ts';
import type { Row } from '../db/entity-schema.ts';
import { snake } from '../db/row.ts';
import { searchPattern } from './search-term.ts';

/** What LIKE gives a meaning (PostgreSQL's default escape is the backslash): each is escaped to stand for itself. */
const LIKE_SPECIAL = /[\\%_]/g;

/**
 * The case folding of a prefix, as PostgreSQL's lower() folds the column (the dotted capital I to
 * a plain i, where JavaScript writes i and a combining dot).
 */
export function foldPrefix(term: string): string {
  return term.replace(/İ/g, 'i').toLowerCase();
}

/**
 * Rows whose `field` matches `term` by `match` (docs/adr/0125-text-filters-match-by-prefix-or.md),
 * every character of the term literal:
 *
 * - `prefix`: `lower(column) LIKE '<term>%'`, the term folded by foldPrefix and `\`, `%`, `_`
 *   escaped, which the btree `(cr_process_id, lower(column) text_pattern_ops)` answers as a range;
 * - `contains`: the searchTerm's expression on the one field (search-term.ts: case-insensitive,
 *   the I folded), which the field's pg_trgm GIN index answers.
 *
 * @example
 * textMatch('taxNumber', 'prefix', '12_4') // lower("tax_number") like '12\_4%'
 */
export function textMatch(field: string, match: TextMatch, term: string): FilterQuery<Row> {
  if (match === 'contains') return { [field]: searchPattern(term) };
  const pattern = `${foldPrefix(term).replace(LIKE_SPECIAL, (c) => `\\${c}`)}%`;
  return { [raw((alias: string) => `lower(${alias}."${snake(field)}")`)]: { $like: pattern } } as FilterQuery<Row>;
}

import { raw, type FilterQuery } from '@mikro-orm/postgresql';
import type { TextMatch } from '@platform/kit/resource/list-view.ts';
import type { Row } from '../db/entity-schema.ts';
import { foldedColumn, prefixPattern } from '../db/prefix-index.ts';
import { snake } from '../db/row.ts';
import { searchPattern } from './search-term.ts';

/**
 * Rows whose `field` matches `term` by `match` (docs/adr/0119-text-filters-match-by-prefix-or.md),
 * every character of the term literal, case ignored and I, İ and ı read as i in both:
 *
 * - `prefix`: the folded column LIKE the folded term with `%` after it (db/prefix-index.ts, the
 *   global search's very expression), which the field's prefix index answers as a range;
 * - `contains`: the searchTerm's expression on the one field (search-term.ts), which the field's
 *   pg_trgm GIN index answers.
 *
 * @example
 * textMatch('taxNumber', 'prefix', '12_4') // lower(translate(e0."tax_number", 'İIı', 'iii')) like '12\_4%'
 */
export function textMatch(field: string, match: TextMatch, term: string): FilterQuery<Row> {
  if (match === 'contains') return { [field]: searchPattern(term) };
  return { [raw((alias: string) => foldedColumn(`${alias}."${snake(field)}"`))]: { $like: prefixPattern(term) } } as FilterQuery<Row>;
}

import type { FilterQuery } from '@mikro-orm/postgresql';
import type { Row } from '../db/entity-schema.ts';

/** The characters PostgreSQL's regular expressions (AREs) give a meaning: each is escaped to stand for itself. */
const SPECIAL = /[\\^$.|?*+()[\]{}]/g;
/** I with and without its dot, in either case: Turkish writes four letters where other Latin scripts write two. */
const ANY_I = /[iIıİ]/g;

/**
 * The regular expression `searchTerm` is matched with (docs/adr/0100-searchterm-folds-the-dotted.md): the
 * term as a case-insensitive substring, every character literal (`%` and `_` too, as they always
 * were), and each of I, ı, İ, i standing for all four, so that "IŞIK", "ışık" and "işik" find
 * "Işık" whatever the database's locale makes of the dotted and dotless I. Other letters are
 * compared case-insensitively as PostgreSQL's `~*` does (the database's character classification).
 * A regular expression rather than ILIKE because the pg_trgm GIN indexes of searchable fields
 * answer `~*` as they answer ILIKE, bracket expressions included, so no index changes.
 *
 * @example
 * searchPattern('IŞIK').source // '[iIıİ]Ş[iIıİ]K', flags 'i'
 * searchPattern('50%_a.b').source // '50%_a\\.b'
 */
export function searchPattern(term: string): RegExp {
  return new RegExp(term.replace(SPECIAL, (c) => `\\${c}`).replace(ANY_I, '[iIıİ]'), 'i');
}

/** Rows any of whose `fields` holds the term (searchPattern); MikroORM writes a RegExp with flag `i` as `~*`. */
export function searchCondition(fields: readonly string[], term: string): FilterQuery<Row> {
  const pattern = searchPattern(term);
  return { $or: fields.map((name) => ({ [name]: pattern })) };
}

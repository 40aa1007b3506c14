import { raw, type FilterQuery } from '@mikro-orm/postgresql';
import type { Row } from '../db/entity-schema.ts';
import { snake } from '../db/row.ts';
import type { SortKey } from './list-cursor.ts';

/**
 * The rows after a position in a list's order (docs/adr/0154-cursor-paging-over-the-sort.md): those
 * whose sort values come after `values` by `keys`, each key ascending or descending, NULL after
 * every value ascending and before every value descending (PostgreSQL's defaults, which the list's
 * ORDER BY keeps). The last key is the record's unique id, so every row is either before or after.
 *
 * - Keys of one direction that never hold NULL (the default order by id; a required field and id)
 *   are one row comparison, `(partner_name, id) > ($1, $2)`, which an index over those columns
 *   answers as a range that starts at the position: page 2,000 reads what page 1 reads.
 * - Otherwise the comparison is spelt out key by key, `a > $1 or (a = $1 and b < $2) or ...`,
 *   with NULL placed by the direction, and a bound on the first key (`a >= $1`) beside it, so an
 *   index on that key still starts near the position.
 *
 * @example
 * keysetCondition([{ field: 'id', desc: false, ... }], [42]) // ("id") > (42)
 */
export function keysetCondition(keys: readonly SortKey[], values: readonly unknown[]): FilterQuery<Row> {
  const [first] = keys;
  if (!first) throw new Error('a keyset needs at least one key');
  if (keys.every((key) => !key.nullable && key.desc === first.desc)) {
    const columns = (alias: string) => `(${keys.map((key) => `${alias}."${snake(key.field)}"`).join(', ')})`;
    const position = raw(`(${keys.map(() => '?').join(', ')})`, [...values]);
    return { [raw(columns)]: { [first.desc ? '$lt' : '$gt']: position } } as FilterQuery<Row>;
  }
  const branches: FilterQuery<Row>[] = [];
  keys.forEach((key, index) => {
    const beyond = beyondValue(key, values[index]);
    if (!beyond) return;
    const ties = keys.slice(0, index).map((tied, j) => ({ [tied.field]: values[j] ?? null }) as FilterQuery<Row>);
    branches.push(ties.length === 0 ? beyond : { $and: [...ties, beyond] });
  });
  const lead = leadingBound(first, values[0]);
  return lead ? { $and: [lead, { $or: branches }] } : { $or: branches };
}

/** The rows whose `key` lies strictly beyond `value` in the key's direction; undefined when none can. */
function beyondValue(key: SortKey, value: unknown): FilterQuery<Row> | undefined {
  const field = key.field;
  if (value === null || value === undefined) {
    // NULL is last ascending: nothing is beyond it; first descending: every value is
    return key.desc ? ({ [field]: { $ne: null } } as FilterQuery<Row>) : undefined;
  }
  if (key.desc) return { [field]: { $lt: value } } as FilterQuery<Row>;
  const greater = { [field]: { $gt: value } } as FilterQuery<Row>;
  return key.nullable ? { $or: [greater, { [field]: null } as FilterQuery<Row>] } : greater;
}

/**
 * What every row at or after the position holds on the first key, where that narrows an index range:
 * `>=` ascending on a column without NULL (NULLs would follow every value), `<=` descending (NULLs
 * came before), `IS NULL` ascending from a NULL.
 */
function leadingBound(key: SortKey, value: unknown): FilterQuery<Row> | undefined {
  if (value === null || value === undefined) return key.desc ? undefined : ({ [key.field]: null } as FilterQuery<Row>);
  if (key.desc) return { [key.field]: { $lte: value } } as FilterQuery<Row>;
  return key.nullable ? undefined : ({ [key.field]: { $gte: value } } as FilterQuery<Row>);
}

import type { FilterQuery } from '@mikro-orm/postgresql';
import type { CallContext } from '../auth/caller.ts';
import type { Row } from '../db/entity-schema.ts';

/**
 * Which of a resource's rows a caller may read within its tenant, where that depends on more than
 * the resource's read role (dms-file: a category's read role,
 * docs/adr/0160-a-category-s-read-role.md). A row outside it is treated as another tenant's: 404
 * by key, left out of lists and counted by no statistics. Both forms state one condition.
 */
export interface ReadLimit {
  /** For the engine's queries through the ORM (a list, a read by key). */
  where: FilterQuery<Row>;
  /** The same over the table's own columns, unqualified, for a statement written by hand (statistics, the global search), `?` placeholders. */
  sql: string;
  /** The values of `sql`'s placeholders. */
  values: unknown[];
}

/**
 * The caller's limit on `rt`'s rows, from the resource's `readLimit` hook, read with `ctx.em` (pass
 * a transaction's context inside one); undefined when nothing limits it.
 *
 * @example
 * const limit = await readLimitOf(rt, { ...ctx, em });
 * const where = limited({ crProcessId: 7 }, limit);
 */
export async function readLimitOf(rt: LimitedRuntime, ctx: CallContext): Promise<ReadLimit | undefined> {
  return rt.hooks?.readLimit?.(ctx);
}

/** What readLimitOf reads of a resource's runtime (crud/runtime.ts ResourceRuntime): its hooks' readLimit. */
export interface LimitedRuntime {
  hooks?: { readLimit?(ctx: CallContext): Promise<ReadLimit | undefined> };
}

/** `where` narrowed by `limit`, or `where` itself when there is none. */
export function limited(where: FilterQuery<Row>, limit: ReadLimit | undefined): FilterQuery<Row> {
  return limit ? ({ $and: [where, limit.where] } as FilterQuery<Row>) : where;
}

/** The read limits of some resources by path, for code that serves several (the global search, a record's history). */
export type ReadLimits = ReadonlyMap<string, (ctx: CallContext) => Promise<ReadLimit | undefined>>;

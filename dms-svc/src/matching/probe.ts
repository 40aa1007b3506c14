import type { EntityManager } from '@mikro-orm/postgresql';

/** The SQLSTATEs a regular expression can fail with: invalid_regular_expression, and query_canceled (its statement timeout). */
export const INVALID_REGEX = '2201B';
export const TIMED_OUT = '57014';

/** The SQLSTATE of a failed statement, as MikroORM's driver exception carries it over from pg. */
export function sqlStateOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Runs read-only `work` in a savepoint of `em`'s transaction and always rolls the savepoint back:
 * a statement that fails (an invalid pattern, a statement timeout) leaves the transaction usable,
 * and a `set_config(..., true)` made inside (statement_timeout) ends with it, which a release would
 * keep until the commit. Nothing `work` writes is kept.
 *
 * @example
 * const ok = await probe(tx, async () => (await tx.execute("select '' ~* ? as ok", [pattern]))[0]);
 */
export async function probe<T>(em: EntityManager, work: () => Promise<T>): Promise<T> {
  if (!em.isInTransaction()) throw new Error('probe runs inside a transaction');
  await em.execute('savepoint dms_matching_probe');
  try {
    return await work();
  } finally {
    await em.execute('rollback to savepoint dms_matching_probe');
    await em.execute('release savepoint dms_matching_probe');
  }
}

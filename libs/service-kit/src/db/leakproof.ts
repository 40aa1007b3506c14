import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';

/**
 * The built-in functions the lists' filters call, which a database's superuser marks LEAKPROOF so
 * that the filters keep their indexes under row-level security
 * (docs/adr/0151-row-level-security-the-second-wall.md).
 *
 * PostgreSQL applies a table's policy before any condition of the query that calls a function not
 * marked LEAKPROOF (one that might reveal its arguments, by an error message for instance), so such
 * a condition cannot be an index condition: a prefix filter (`lower(translate(col, …)) like 'ab%'`,
 * the prefix index), a containment or a search (`col ~* 'term'`, the pg_trgm index) and a numeric
 * range, a text search (`vector @@ query`) would read every row of the tenant instead. Each function below raises no error that
 * depends on the row's value (the pattern's errors depend on the pattern alone, which the caller
 * wrote) and has no side effect, which is what LEAKPROOF promises. Only a superuser may mark one,
 * and the mark is per database: the platform's launchers do it where they run the server (the
 * embedded one, the tests'); an operator does it once (deploy/README.md); a service whose database
 * lacks it logs which at start, and its lists are then correct but slower.
 */
export const LEAKPROOF_FUNCTIONS = [
  'pg_catalog.lower(text)',
  'pg_catalog.translate(text, text, text)',
  'pg_catalog.textlike(text, text)',
  'pg_catalog.texticregexeq(text, text)',
  'pg_catalog.numeric_eq(numeric, numeric)',
  'pg_catalog.numeric_ne(numeric, numeric)',
  'pg_catalog.numeric_lt(numeric, numeric)',
  'pg_catalog.numeric_le(numeric, numeric)',
  'pg_catalog.numeric_gt(numeric, numeric)',
  'pg_catalog.numeric_ge(numeric, numeric)',
  // a file's words: `search @@ query` (docs/adr/0159-documents-found-by-their-words.md), through the (tenant, vector) GIN index
  'pg_catalog.ts_match_vq(tsvector, tsquery)',
] as const;

/** The statements a superuser runs in the platform's database, idempotent. */
export const MARK_LEAKPROOF = LEAKPROOF_FUNCTIONS.map((signature) => `alter function ${signature} leakproof`);

/** Those of LEAKPROOF_FUNCTIONS not marked in the ORM's database. */
export async function notLeakproof(orm: MikroORM): Promise<string[]> {
  // the signatures are the constants above, written into the statement as literals
  const listed = LEAKPROOF_FUNCTIONS.map((signature) => `('${signature}')`).join(', ');
  const rows = await orm.em
    .getConnection()
    .execute<{ signature: string }[]>(
      `select f.signature from (values ${listed}) as f(signature) where not (select p.proleakproof from pg_proc p where p.oid = f.signature::regprocedure)`,
    );
  return rows.map((row) => row.signature);
}

/** At a service's start: a warning naming the functions not marked, which only a superuser can mark (the statements given). */
export async function warnNotLeakproof(orm: MikroORM, log: Logger): Promise<void> {
  const missing = await notLeakproof(orm);
  if (missing.length > 0) {
    log.warn(
      { notLeakproof: missing, statements: MARK_LEAKPROOF.filter((statement) => missing.some((signature) => statement.includes(signature))) },
      'list filters on these functions cannot use their indexes under row-level security: a superuser marks them LEAKPROOF (deploy/README.md)',
    );
  }
}

import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * The columns of every unique key of the platform's schemas, by the constraint's (or unique
 * index's) name: what a duplicate is named by when PostgreSQL leaves out the key it would show. It
 * does so on a table under row-level security (docs/adr/0151-row-level-security-the-second-wall.md):
 * its `Key (…)=(…) already exists` would show values of a row the caller may not see. Read once at
 * a service's start, after its migrations.
 */
const keys = new Map<string, string[]>();

/** Reads the unique keys of the core, bpm and dms schemas (a service names another's duplicates too: none today, but cheaply). */
export async function loadUniqueKeys(orm: MikroORM): Promise<void> {
  const rows = await orm.em.getConnection().execute<{ name: string; columns: string[] }[]>(
    `select i.relname as name, array(select a.attname from unnest(x.indkey) with ordinality k(attnum, n)
                                      join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum order by k.n)::text[] as columns
       from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join pg_namespace s on s.oid = i.relnamespace
      where x.indisunique and s.nspname in ('core', 'bpm', 'dms')`,
  );
  keys.clear();
  for (const row of rows) keys.set(row.name, row.columns);
}

/** The columns of unique key `name`, in their order; undefined for one not read. */
export function uniqueKeyColumns(name: string | undefined): string[] | undefined {
  return name === undefined ? undefined : keys.get(name);
}

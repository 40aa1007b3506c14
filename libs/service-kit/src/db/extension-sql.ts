/**
 * The contrib extensions the services' migrations use (pg_trgm, unaccent, btree_gin), installed once
 * per database whichever service needs one first. A database holds an extension in one schema only,
 * and MikroORM migrates with `search_path` set to the service's own schema, so an extension created
 * by a bare `create extension` lands in whichever service's schema got there first, where the other
 * services' names do not reach it. Here an extension is created in `public` when it is not there
 * yet, under a lock every migration takes for it (two services migrating at once do not race to
 * create it), and DDL that names one of its objects names it in the schema it is found in (a
 * database migrated before this found pg_trgm in `bpm`).
 */

/** The transaction advisory lock the services' migrations take around creating an extension: "platform.extensions". */
const EXTENSIONS_LOCK = `hashtext('platform.extensions')`;

/**
 * A statement that makes sure `name` is installed: in `public` when it is nowhere yet.
 *
 * @example
 * this.addSql(ensureExtension('pg_trgm'));
 */
export function ensureExtension(name: 'pg_trgm' | 'unaccent' | 'btree_gin'): string {
  return (
    `do $$ begin perform pg_advisory_xact_lock(${EXTENSIONS_LOCK}); ` +
    `if not exists (select from pg_extension where extname = '${name}') then create extension ${name} schema public; end if; end $$;`
  );
}

/**
 * A statement that runs `ddl` with each `@ext.` replaced by the (quoted) schema that holds extension
 * `name` and a dot, so that the DDL names the extension's objects wherever they were installed.
 *
 * @example
 * this.addSql(withExtensionSchema('pg_trgm', 'create index "t_w_index" on "dms"."t" using gin ("w" @ext.gin_trgm_ops)'));
 */
export function withExtensionSchema(name: 'pg_trgm' | 'unaccent' | 'btree_gin', ddl: string): string {
  if (ddl.includes('$ddl$')) throw new Error('the DDL may not hold $ddl$');
  return (
    `do $$ declare s text := (select extnamespace::regnamespace::text from pg_extension where extname = '${name}'); ` +
    `begin execute replace($ddl$${ddl}$ddl$, '@ext.', s || '.'); end $$;`
  );
}

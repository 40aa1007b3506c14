/**
 * Entities and migrations state one fact twice (conventions: "Immich's CI fails when its entities
 * and its migrations drift apart"): for each service, a fresh database built by its migrations must
 * be what its declared entities describe, so that MikroORM has nothing left to migrate. A change to a
 * declaration without `npm run migration:create` fails here, listing the SQL the migration lacks.
 */
import test from 'ava';
import { pendingSchemaSql, SERVICES, withMigratedScratch } from '../scripts/lib/scratch-schema.ts';
import { withClient, withDatabase } from '../scripts/lib/pg-client.ts';
import { platform } from './helpers/platform.ts';

const server = withDatabase(platform.databaseUrl, 'postgres');

for (const service of SERVICES) {
  test(`${service}: the schema its migrations build is the schema its entities declare (migration:create finds no changes)`, async (t) => {
    const sql = await withMigratedScratch(service, server, pendingSchemaSql);
    t.is(sql, '', `${service}-svc's entities and migrations differ; run \`npm run migration:create -- ${service}\`. Missing:\n${sql}`);
  });
}

/**
 * The diff above matches an index declared as raw DDL (prefix and trigram indexes: MikroORM has no
 * operator classes) by its name alone, so a migration that builds it over another expression would
 * pass it: each such index is compared with what its declared DDL builds, in PostgreSQL's own words.
 */
for (const service of SERVICES) {
  test(`${service}: each index declared as DDL is, in the migrated schema, the index that DDL builds`, async (t) => {
    const { found, declared } = await withMigratedScratch(service, server, async (orm) => {
      const declarations = [...orm.getMetadata().getAll().values()].flatMap((meta) =>
        meta.indexes.flatMap(({ name, expression }) =>
          typeof name === 'string' && typeof expression === 'string' ? [{ schema: meta.schema ?? '', name, expression }] : [],
        ),
      );
      const differing = await withClient(orm.config.get('clientUrl') ?? '', async (client) => {
        const definition = async (schema: string, name: string) =>
          (await client.query<{ def: string }>('select indexdef as def from pg_indexes where schemaname = $1 and indexname = $2', [schema, name])).rows[0]?.def;
        const out: string[] = [];
        for (const { schema, name, expression } of declarations) {
          // built beside it under another name, in the schema the migrations ran in, then undone
          await client.query('begin');
          try {
            // and public, where the migrations install the extensions whose operator classes they name (db/extension-sql.ts)
            await client.query(`set local search_path to "${schema}", public`);
            const migrated = await definition(schema, name);
            await client.query(expression.replace(`"${name}"`, '"schema_drift_probe_index"'));
            const built = (await definition(schema, 'schema_drift_probe_index'))?.replace('schema_drift_probe_index', name);
            if (migrated !== built) out.push(`${name}:\n  migrations: ${migrated}\n  entities:   ${built}`);
          } finally {
            await client.query('rollback');
          }
        }
        return out;
      });
      return { found: differing, declared: declarations.length };
    });
    t.true(declared > 0, 'no index declared as DDL was compared');
    t.deepEqual(found, [], `${service}-svc's migrations build these indexes otherwise than its entities declare them`);
  });
}

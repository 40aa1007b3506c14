/**
 * A service's schema as its migrations build it, on a scratch database, and what MikroORM would
 * still change to reach its declared entities: the one diff that `npm run migration:create` writes
 * and the schema-drift test expects to be empty.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { createOrm } from '@platform/service-kit/db/orm.ts';
import { withClient } from './pg-client.ts';
import { createFreshDatabase } from './test-database.ts';
import { type MigratedService, SERVICES, serviceSchema } from './service-schemas.ts';

export { isService, type MigratedService, SERVICES } from './service-schemas.ts';

/** The local server's maintenance database: where scratch databases are made unless told otherwise. */
export const LOCAL_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Runs `work` with an ORM of `service` on a fresh database of `adminUrl`'s server that the service's
 * migrations have built, after those of the services before it (the order `npm run migrate -- up`
 * applies: bpm's keys name core's tables); drops the database afterwards, whatever `work` did.
 *
 * @example
 * const sql = await withMigratedScratch('bpm', LOCAL_SERVER, pendingSchemaSql);
 */
export async function withMigratedScratch<T>(
  service: MigratedService,
  adminUrl: string,
  work: (orm: MikroORM, migrationsDir: string) => Promise<T>,
): Promise<T> {
  const { SCHEMA, entities, migrationsDir } = await serviceSchema(service);
  const scratch = await createFreshDatabase(adminUrl, `migration_scratch_${service}`);
  try {
    for (const before of SERVICES.slice(0, SERVICES.indexOf(service))) {
      const other = await serviceSchema(before);
      const orm = await createOrm({ url: scratch.url, schema: other.SCHEMA, entities: other.entities, migrationsDir: other.migrationsDir, poolSize: 2 });
      try {
        await orm.migrator.up();
      } finally {
        await orm.close();
      }
    }
    const diffSkips = await otherSchemas(scratch.url, SCHEMA);
    const orm = await createOrm({ url: scratch.url, schema: SCHEMA, entities, migrationsDir, poolSize: 2, diffSkips });
    try {
      await orm.migrator.up();
      return await work(orm, migrationsDir);
    } finally {
      await orm.close();
    }
  } finally {
    await scratch.drop();
  }
}

/**
 * The SQL that would bring the database of `orm` to its declared entities, computed as the
 * migrator computes a new migration (same options); empty when the two agree.
 */
export async function pendingSchemaSql(orm: MikroORM): Promise<string> {
  const options = orm.config.get('migrations');
  const diff = await orm.schema.getUpdateSchemaMigrationSQL({ wrap: false, safe: options.safe, dropTables: options.dropTables });
  return diff.up.trim();
}

/**
 * The tables and views of the scratch's other schemas: MikroORM's diff reads every schema and would
 * drop what the service does not declare, and it matches the names to skip without their schema, so
 * a name the service's own schema shares would hide its own table too (refused here).
 */
async function otherSchemas(url: string, schema: string): Promise<{ tables: string[]; views: string[] }> {
  const rows = await withClient(url, async (client) => {
    const result = await client.query<{ name: string; kind: string; own: boolean }>(
      `select table_name as name, table_type as kind, table_schema = $1 as own from information_schema.tables
        where table_schema not in ('pg_catalog', 'information_schema')`,
      [schema],
    );
    return result.rows;
  });
  const own = new Set(rows.filter((row) => row.own).map((row) => row.name));
  // every schema's migrations table is named alike; the service's own is left out by MikroORM itself
  const others = rows.filter((row) => !row.own);
  const shared = others.find((row) => own.has(row.name) && row.name !== 'mikro_orm_migrations');
  if (shared) throw new Error(`${schema} and another schema both hold ${shared.name}: the schema diff cannot tell them apart`);
  return {
    tables: others.filter((row) => row.kind !== 'VIEW').map((row) => row.name),
    views: others.filter((row) => row.kind === 'VIEW').map((row) => row.name),
  };
}

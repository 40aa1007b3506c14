/**
 * A service's schema as its migrations build it, on a scratch database, and what MikroORM would
 * still change to reach its declared entities: the one diff that `npm run migration:create` writes
 * and the schema-drift test expects to be empty.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { createOrm } from '@platform/libs/db/orm.ts';
import { createFreshDatabase } from './test-database.ts';
import { type MigratedService, serviceSchema } from './service-schemas.ts';

export { isService, type MigratedService, SERVICES } from './service-schemas.ts';

/** The local server's maintenance database: where scratch databases are made unless told otherwise. */
export const LOCAL_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Runs `work` with an ORM of `service` on a fresh database of `adminUrl`'s server that the service's
 * migrations have built; drops the database afterwards, whatever `work` did.
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
    const orm = await createOrm({ url: scratch.url, schema: SCHEMA, entities, migrationsDir, poolSize: 2 });
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

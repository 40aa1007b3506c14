import { MikroORM, type EntitySchema } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from '@platform/kit/log/logger.ts';
import { POOL_VARIABLES } from '../config/database-pools.ts';
import type { Row } from './entity-schema.ts';
import { noteSingleSyncFallback, SINGLE_SYNC } from './pg-single-sync.ts';

export interface OrmOptions {
  /** postgres:// URL. */
  url: string;
  /** The service's own PostgreSQL schema (core, bpm, dms): each service owns its tables. */
  schema: string;
  entities: EntitySchema<Row>[];
  /** Absolute path of the service's migrations folder. */
  migrationsDir: string;
  /** Connection pool size (default a service's: config/database-pools.ts). */
  poolSize?: number;
  debug?: boolean;
  /** Where MikroORM's own messages (the migrator's) go, as JSON lines; default: its coloured text on stdout. */
  log?: Logger;
  /**
   * Tables and views (bare names) the schema diff must not see: another service's, on a scratch
   * database that holds its schema too (scripts/lib/scratch-schema.ts). MikroORM reads every
   * schema's tables and matches these by name alone.
   */
  diffSkips?: { tables: string[]; views: string[] };
  /** Sees every statement before it is sent (bench/list-sql.ts records them); returns the SQL to send. */
  onQuery?: (sql: string, params: readonly unknown[]) => string;
}

/**
 * A MikroORM instance for one service: its entities in its own schema, its migrations tracked in
 * `<schema>.mikro_orm_migrations`. The global EntityManager is never used for work: handlers fork it.
 *
 * @example
 * const orm = await createOrm({ url, schema: 'bpm', entities, migrationsDir });
 * await migrateUp(orm); // migration-runner.ts: under the schema's migration lock
 */
export async function createOrm(options: OrmOptions): Promise<MikroORM> {
  noteSingleSyncFallback(options.log);
  return MikroORM.init({
    clientUrl: options.url,
    schema: options.schema,
    entities: options.entities,
    extensions: [Migrator],
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
    forceUtcTimezone: true,
    debug: options.debug ?? false,
    ...(options.log ? { logger: (message: string) => options.log?.info(message), colors: false } : {}),
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
    // Another schema's tables among the entities are the targets of keys that cross schemas
    // (entity-schema.ts): that service's migrations make and change them, never this one's diff.
    schemaGenerator: { skipTables: [...otherSchemasTables(options), ...(options.diffSkips?.tables ?? [])], skipViews: options.diffSkips?.views ?? [] },
    pool: { min: 1, max: options.poolSize ?? POOL_VARIABLES.orm.fallback.service, idleTimeoutMillis: 60_000 },
    // pg's pool waits for a connection without limit: a database that drops packets (not refusing)
    // would hold every call until the gateway's deadline; 5 s, then 503 SVC-SYS-5002. The clients
    // pipeline (node-postgres's `pipeline`) only where a scoped hot read falls back to `begin`, its
    // scope, itself and `commit` in one write (prepared.ts): else it goes under one Sync
    // (pg-single-sync.ts), and MikroORM awaits each of its statements, which pipelining leaves as they are.
    driverOptions: { connectionTimeoutMillis: 5_000, pipeline: !SINGLE_SYNC },
    migrations: {
      path: options.migrationsDir,
      pathTs: options.migrationsDir,
      tableName: 'mikro_orm_migrations',
      schema: options.schema,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      snapshotOnMigrate: false,
      emit: 'ts',
      // The callers report what was applied (services as JSON log lines, `npm run migrate` as text).
      silent: true,
    },
  });
}

function otherSchemasTables(options: OrmOptions): string[] {
  return options.entities.flatMap(({ meta }) => (meta.schema && meta.schema !== options.schema ? [`${meta.schema}.${meta.tableName}`] : []));
}

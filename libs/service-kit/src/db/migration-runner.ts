import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { type MigrationLockOptions, withMigrationLock } from './migration-lock.ts';
import { type Execute, grantServingRole } from './serving-grants.ts';
import { schemaReadable } from './serving-role.ts';

/** What a service schema's migrations are: applied (oldest first) and pending (in the order `up` would apply them). */
export interface MigrationStatus {
  schema: string;
  applied: { name: string; executedAt: Date }[];
  pending: string[];
}

/** A production service found migrations it may not apply itself (docs/adr/0049-migrations-one-runner-one-lock.md). */
export class PendingMigrationsError extends Error {
  override name = 'PendingMigrationsError';
  readonly schema: string;
  readonly pending: string[];
  constructor(schema: string, pending: string[]) {
    super(
      `${schema}: ${pending.length} pending migration${pending.length === 1 ? '' : 's'} (${pending.join(', ')}); ` +
        `production does not migrate at start: run \`npm run migrate -- up ${schema}\` (deploy/: the Job migrate) first`,
    );
    this.schema = schema;
    this.pending = pending;
  }
}

/*
 * Every step below runs under the schema's migration lock (migration-lock.ts), the read-only ones
 * too: a status or a production start during a migration waits for its end rather than seeing it
 * half done, and MikroORM's first look creates the tracking table, which two at once would race to do.
 */

// The lock's connection is made with the ORM's own URL: the owner's when it migrates
// (DATABASE_OWNER_URL), the serving role's when a production service or a worker reads the status;
// an advisory lock is the database's, whichever role takes it.
function locked<T>(orm: MikroORM, options: MigrationLockOptions, work: () => Promise<T>): Promise<T> {
  const { url, schema } = target(orm);
  return withMigrationLock(url, schema, work, options);
}

function target(orm: MikroORM): { url: string; schema: string } {
  const url = orm.config.get('clientUrl');
  const schema = orm.config.get('schema');
  if (!url || !schema) throw new Error('the ORM was made without clientUrl or schema (createOrm sets both)');
  return { url, schema };
}

export interface MigrateUpOptions extends MigrationLockOptions {
  /**
   * The serving role (config/database-url.ts servingRoleOf): granted what serving needs on the
   * schema after the migrations, under the lock (serving-grants.ts); none when there is one role.
   */
  servingRole?: string;
}

/**
 * Applies the pending migrations of the ORM's schema, as the ORM's user (the owner), granting the
 * serving role before and after, every time (idempotent: a role added later is granted at the next `up`); the
 * migrations' names, none when another migrator applied them while this one waited for the lock.
 *
 * @example
 * const applied = await migrateUp(orm, { servingRole: servingRoleOf(), onWait: (holders) => log.warn({ holders }, 'waiting') });
 */
export function migrateUp(orm: MikroORM, options: MigrateUpOptions = {}): Promise<string[]> {
  return locked(orm, options, async () => {
    const { schema } = target(orm);
    // before: the schema with its grants and default privileges, so that each table a migration
    // creates is granted as it is created (another service reading this schema never sees one
    // without); after: whatever the defaults did not cover
    await grantServingRole(executeOn(orm), schema, options.servingRole, { createSchema: true });
    const applied = (await orm.migrator.up()).map((migration) => migration.name);
    await grantServingRole(executeOn(orm), schema, options.servingRole);
    return applied;
  });
}

/** Statements (`$1` parameters) on a connection of the ORM's pool, outside any entity manager. */
export function executeOn(orm: MikroORM): Execute {
  return async (sql, params = []) => {
    // MikroORM's public getNativeClient() is the pg Pool behind the ORM
    const pool = (await orm.driver.getConnection().getNativeClient()) as unknown as pg.Pool;
    return (await pool.query(sql, params)).rows as Record<string, unknown>[];
  };
}

/** Reverts the last applied migration of the ORM's schema; its name, or undefined when none is applied. */
export function migrateDown(orm: MikroORM, options: MigrationLockOptions = {}): Promise<string | undefined> {
  return locked(orm, options, async () => (await orm.migrator.down())[0]?.name);
}

export function migrationStatus(orm: MikroORM, options: MigrationLockOptions = {}): Promise<MigrationStatus> {
  return locked(orm, options, async () => ({
    schema: target(orm).schema,
    applied: (await orm.migrator.getExecuted()).map((row) => ({ name: row.name, executedAt: row.executed_at })),
    pending: (await orm.migrator.getPending()).map((migration) => migration.name),
  }));
}

/** A production service whose role cannot read its schema: not migrated yet, or not granted to it. */
export class SchemaNotGrantedError extends Error {
  override name = 'SchemaNotGrantedError';
  constructor(schema: string) {
    super(
      `${schema}: the role of DATABASE_URL cannot read the schema: it is not migrated, or was migrated without granting that role; ` +
        `production does not migrate at start: run \`npm run migrate -- up ${schema}\` as the owner (DATABASE_OWNER_URL, with DATABASE_URL naming the serving role; deploy/: the Job migrate) first`,
    );
  }
}

/**
 * What the ORM's role (the serving role) sees of its schema's migrations, under the lock: whether it
 * may read them at all (schemaReadable), and what is pending when it may. Never creates anything,
 * unlike a migrator's first look.
 */
export function servingStatus(orm: MikroORM, options: MigrationLockOptions = {}): Promise<{ readable: boolean; pending: string[] }> {
  return locked(orm, options, async () => {
    if (!(await schemaReadable(executeOn(orm), target(orm).schema))) return { readable: false, pending: [] };
    return { readable: true, pending: (await orm.migrator.getPending()).map((migration) => migration.name) };
  });
}

/**
 * Throws PendingMigrationsError when a migration of the ORM's schema is pending, SchemaNotGrantedError
 * when the ORM's role may not read the schema: a production service's start. A migration under way is
 * waited for (the lock), so a pod that starts while the migrate Job runs comes up once it is done.
 */
export async function requireMigrated(orm: MikroORM, options: MigrationLockOptions = {}): Promise<void> {
  const { readable, pending } = await servingStatus(orm, options);
  if (!readable) throw new SchemaNotGrantedError(target(orm).schema);
  if (pending.length > 0) throw new PendingMigrationsError(target(orm).schema, pending);
}

import type { MikroORM } from '@mikro-orm/postgresql';
import { type MigrationLockOptions, withMigrationLock } from './migration-lock.ts';

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

/**
 * Applies the pending migrations of the ORM's schema; their names, none when another migrator
 * applied them while this one waited for the lock.
 *
 * @example
 * const applied = await migrateUp(orm, { onWait: (holders) => log.warn({ holders }, 'waiting') });
 */
export function migrateUp(orm: MikroORM, options: MigrationLockOptions = {}): Promise<string[]> {
  return locked(orm, options, async () => (await orm.migrator.up()).map((migration) => migration.name));
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

/**
 * Throws PendingMigrationsError when a migration of the ORM's schema is pending: a production
 * service's start. A migration under way is waited for (the lock), so a pod that starts while the
 * migrate Job runs comes up once it is done.
 */
export async function requireMigrated(orm: MikroORM, options: MigrationLockOptions = {}): Promise<void> {
  const { schema, pending } = await migrationStatus(orm, options);
  if (pending.length > 0) throw new PendingMigrationsError(schema, pending);
}

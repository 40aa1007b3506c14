import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { type MigrationLockOptions, withMigrationLock } from '../db/migration-lock.ts';
import { grantServingRole } from '../db/serving-grants.ts';

/**
 * The job queue's schema, which pg-boss creates and migrates, brought up to date as its owner
 * (docs/adr/0150-a-serving-role-apart-from-the-owner.md): a pg-boss of its own on the owner's
 * connection installs or migrates the schema and stops, under the schema's migration lock (workers
 * starting together, or the migrate Job beside them, do it one at a time), then the serving role is
 * granted what the queue needs at run time (its rows and functions, db/serving-grants.ts). The
 * workers' own pg-boss then runs on the serving role and migrates nothing.
 * Called by `npm run migrate -- up` (production's migrate Job) and by a worker's start in
 * development and test (jobs/worker-main.ts).
 *
 * @example
 * await migrateJobSchema({ ownerUrl: databaseOwnerUrlOf(), servingRole: servingRoleOf(), schema: JOB_SCHEMA });
 */
export async function migrateJobSchema(options: {
  ownerUrl: string;
  schema: string;
  /** Granted the schema after; none when there is one role. */
  servingRole?: string;
  lock?: MigrationLockOptions;
}): Promise<void> {
  const { ownerUrl, schema } = options;
  await withMigrationLock(
    ownerUrl,
    schema,
    async () => {
      const boss = new PgBoss({
        connectionString: ownerUrl,
        schema,
        application_name: options.lock?.applicationName ?? `migrate ${schema}`,
        max: 2,
        migrate: true,
        supervise: false,
        schedule: false,
        openTelemetry: { enabled: false },
      });
      let failure: unknown;
      boss.on('error', (error) => (failure ??= error));
      await boss.start();
      await boss.stop({ graceful: false, close: true });
      if (failure) throw failure;
      const client = new pg.Client({ connectionString: ownerUrl, application_name: `grant ${schema}` });
      client.on('error', () => undefined);
      await client.connect();
      try {
        await grantServingRole(async (sql, params) => (await client.query(sql, params)).rows, schema, options.servingRole);
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    options.lock,
  );
}

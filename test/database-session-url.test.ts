/**
 * DATABASE_SESSION_URL (libs/service-kit/src/config/database-url.ts, docs/adr/0149-a-replicated-database-in-the-cluster.md):
 * where DATABASE_URL leads through a pooler in transaction mode, the migration lock's own connection
 * goes there instead, so its session holds the lock it took; unset, DATABASE_URL. On a real
 * PostgreSQL (the suite's, else the local one).
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import pg from 'pg';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import { sessionDatabaseUrlOf } from '@platform/service-kit/config/database-url.ts';
import { withMigrationLock } from '@platform/service-kit/db/migration-lock.ts';

const URL = process.env.PLATFORM_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

test('the session URL is DATABASE_SESSION_URL where set, else DATABASE_URL; neither refuses the start', (t) => {
  t.is(sessionDatabaseUrlOf({ DATABASE_URL: 'postgres://pooler/p', DATABASE_SESSION_URL: 'postgres://primary/p' }), 'postgres://primary/p');
  t.is(sessionDatabaseUrlOf({ DATABASE_URL: 'postgres://pooler/p' }), 'postgres://pooler/p');
  t.is(sessionDatabaseUrlOf({ DATABASE_URL: 'postgres://pooler/p', DATABASE_SESSION_URL: '' }), 'postgres://pooler/p');
  t.throws(() => sessionDatabaseUrlOf({}), { instanceOf: ConfigError });
});

test("the migration lock is taken on the session URL's connection, not the work's", async (t) => {
  const schema = `lock_${randomBytes(4).toString('hex')}`;
  const applicationName = `session-url-test ${schema}`;
  const observer = new pg.Client({ connectionString: URL });
  await observer.connect();
  t.teardown(() => observer.end());
  // the work's URL answers nothing: only the lock's connection can have been made
  const holders = await withMigrationLock(
    'postgres://nobody@127.0.0.1:1/nothing',
    schema,
    async () =>
      (
        await observer.query<{ n: string }>(
          `select count(*) as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where l.locktype = 'advisory' and a.application_name = $1`,
          [applicationName],
        )
      ).rows[0]?.n,
    { lockUrl: URL, applicationName },
  );
  t.is(Number(holders), 1, 'the lock is held by the session of the session URL');
  const after = await observer.query('select 1 from pg_stat_activity where application_name = $1', [applicationName]);
  t.is(after.rowCount, 0, 'and released with it');
});

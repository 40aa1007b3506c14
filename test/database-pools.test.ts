/**
 * Every PostgreSQL pool's size from configuration (libs/service-kit/src/config/database-pools.ts,
 * docs/adr/0147-a-connection-budget.md): DATABASE_POOL_MAX sizes a process's ORM pool,
 * JOBS_DATABASE_POOL_MAX a worker's queue (pg-boss); unset, today's sizes; a wrong value refuses the
 * start, naming the variable. On a real PostgreSQL (the suite's, else the local one), a pool never
 * opens more connections than its variable allows.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import pg from 'pg';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import { createLogger } from '@platform/kit/log/logger.ts';
import { connectionsOf, databasePoolsOf } from '@platform/service-kit/config/database-pools.ts';
import { createOrm } from '@platform/service-kit/db/orm.ts';
import { startJobQueue } from '@platform/service-kit/jobs/job-queue.ts';

const URL = process.env.PLATFORM_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

test('unset, each role keeps the sizes it had: a service 10, a worker 2 and 2 for its queue, the migrator 2; one more for the migration lock', (t) => {
  t.deepEqual(databasePoolsOf({}, 'service'), { orm: 10, jobs: 0, migrationLock: 1 });
  t.deepEqual(databasePoolsOf({}, 'worker'), { orm: 2, jobs: 2, migrationLock: 1 });
  t.deepEqual(databasePoolsOf({}, 'migrate'), { orm: 2, jobs: 0, migrationLock: 1 });
  t.is(connectionsOf(databasePoolsOf({}, 'worker')), 5);
});

test('set, the variables size the pools; a process without a queue ignores JOBS_DATABASE_POOL_MAX', (t) => {
  const env = { DATABASE_POOL_MAX: '4', JOBS_DATABASE_POOL_MAX: '3' };
  t.deepEqual(databasePoolsOf(env, 'worker'), { orm: 4, jobs: 3, migrationLock: 1 });
  t.deepEqual(databasePoolsOf(env, 'service'), { orm: 4, jobs: 0, migrationLock: 1 });
  t.deepEqual(databasePoolsOf({ DATABASE_POOL_MAX: '' }, 'service'), { orm: 10, jobs: 0, migrationLock: 1 }, 'empty is unset');
});

test('a size that is not a whole number from 1 to 1000 refuses the start, naming the variable', (t) => {
  for (const [name, value] of [
    ['DATABASE_POOL_MAX', '0'],
    ['DATABASE_POOL_MAX', '2.5'],
    ['DATABASE_POOL_MAX', 'ten'],
    ['DATABASE_POOL_MAX', '1001'],
    ['JOBS_DATABASE_POOL_MAX', '-1'],
  ] as const) {
    const error = t.throws(() => databasePoolsOf({ [name]: value }, 'worker'), { instanceOf: ConfigError });
    t.is(error?.message, `${name} must be a whole number from 1 to 1000, not ${value}`);
  }
});

test('the ORM pool opens at most DATABASE_POOL_MAX connections however many queries wait', async (t) => {
  const { orm: size } = databasePoolsOf({ DATABASE_POOL_MAX: '3' }, 'service');
  const orm = await createOrm({ url: URL, schema: 'public', entities: [], migrationsDir: '/nonexistent', poolSize: size });
  t.teardown(() => orm.close());
  const rows = await Promise.all(
    Array.from({ length: 12 }, () => orm.em.getConnection().execute<{ pid: number }[]>('select pg_backend_pid() as pid, pg_sleep(0.1)')),
  );
  t.is(new Set(rows.map(([row]) => row?.pid)).size, 3);
});

test("a worker's queue holds at most JOBS_DATABASE_POOL_MAX connections", async (t) => {
  const tag = randomBytes(4).toString('hex');
  const schema = `pgboss_pools_${tag}`;
  const applicationName = `pools-test-${tag}`;
  const { jobs } = databasePoolsOf({ JOBS_DATABASE_POOL_MAX: '1' }, 'worker');
  const queue = await startJobQueue({ url: URL, jobs: [], log: createLogger('pools-test', 'silent'), schema, applicationName, poolMax: jobs });
  const admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  t.teardown(async () => {
    await queue.stop();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });
  // the queue at work: its sends and fetches, all at once
  await Promise.all(Array.from({ length: 5 }, () => queue.sendNow('absent').catch(() => null)));
  const { rows } = await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where application_name = $1', [applicationName]);
  t.is(Number(rows[0]?.n), 1);
});

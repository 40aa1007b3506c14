/**
 * The two database roles (docs/adr/0150-a-serving-role-apart-from-the-owner.md): the platform under
 * test serves as DATABASE_URL's role, which owns nothing, and migrates as the owner
 * (DATABASE_OWNER_URL). That role is no superuser and has no BYPASSRLS; it reads and writes rows
 * (the suite passing shows it) but creates, alters, drops and truncates nothing; what a later
 * migration creates is granted to it by default; the job queue's schema is the owner's and the
 * serving role runs the queue; and the start check refuses in production a role that would not be
 * subject to row-level security, and warns elsewhere.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import test from 'ava';
import pg from 'pg';
import { pino } from 'pino';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import { userOf } from '@platform/service-kit/config/database-url.ts';
import { checkServingRole, servingRoleFacts, servingRoleProblems } from '@platform/service-kit/db/serving-role.ts';
import type { Execute } from '@platform/service-kit/db/serving-grants.ts';
import { defineJob } from '@platform/service-kit/jobs/job.ts';
import { JOB_SCHEMA, startJobQueue } from '@platform/service-kit/jobs/job-queue.ts';
import { createLogger } from '@platform/kit/log/logger.ts';
import { platform } from './helpers/platform.ts';

const SCHEMAS = ['core', 'bpm', 'dms'] as const;
const servingUrl = platform.env.DATABASE_URL!;
const servingRole = userOf(servingUrl);
const ownerRole = userOf(platform.databaseUrl);

/** `work` on a connection of its own to the platform's database as `url`'s role. */
async function as<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const executeOf =
  (client: pg.Client): Execute =>
  async (sql, params) =>
    (await client.query(sql, params)).rows;

/** The SQLSTATE `statement` fails with on `client`, inside a transaction rolled back after; undefined when it succeeds. */
async function failureOf(client: pg.Client, statement: string): Promise<string | undefined> {
  await client.query('begin');
  try {
    await client.query(statement);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  } finally {
    await client.query('rollback');
  }
}

/** A pino logger whose lines are kept, parsed. */
function keptLog(): { log: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

test('the platform serves as a role of its own, apart from the owner that migrated, and its workers connect as it', async (t) => {
  t.truthy(platform.env.DATABASE_OWNER_URL, 'the run gives the platform the owner URL');
  t.truthy(servingRole);
  t.not(servingRole, ownerRole);
  const workers = await as(platform.databaseUrl, async (client) => {
    const { rows } = await client.query<{ usename: string }>(
      `select distinct usename from pg_stat_activity where datname = current_database() and application_name in ('core-worker', 'bpm-worker', 'dms-worker')`,
    );
    return rows.map((row) => row.usename);
  });
  t.deepEqual(workers, [servingRole], "the workers' job queues run as the serving role");
});

test('the serving role owns no table of core, bpm, dms or the job queue, is no superuser and has no BYPASSRLS', async (t) => {
  await as(servingUrl, async (client) => {
    for (const schema of [...SCHEMAS, JOB_SCHEMA]) {
      const facts = await servingRoleFacts(executeOf(client), schema);
      t.is(facts.role, servingRole);
      t.false(facts.superuser);
      t.false(facts.bypassRls);
      t.false(facts.ownsSchema, schema);
      t.is(facts.ownedTables, 0, schema);
      t.deepEqual(servingRoleProblems(facts), [], schema);
    }
  });
});

test('the serving role may read and write every table of the schemas, and nothing more', async (t) => {
  const rows = await as(platform.databaseUrl, async (client) => {
    const { rows: found } = await client.query<{ relation: string; dml: boolean; more: boolean }>(
      `select n.nspname || '.' || c.relname as relation,
              has_table_privilege($1, c.oid, 'SELECT, INSERT, UPDATE, DELETE') and has_table_privilege($1, c.oid, 'SELECT')
                and has_table_privilege($1, c.oid, 'INSERT') and has_table_privilege($1, c.oid, 'UPDATE') and has_table_privilege($1, c.oid, 'DELETE') as dml,
              has_table_privilege($1, c.oid, 'TRUNCATE, REFERENCES, TRIGGER') as more
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any($2) and c.relkind in ('r', 'p')`,
      [servingRole, [...SCHEMAS, JOB_SCHEMA]],
    );
    return found;
  });
  t.true(rows.length > 20, `the schemas' tables: ${rows.length}`);
  t.deepEqual(
    rows.filter((row) => !row.dml).map((row) => row.relation),
    [],
    'every table: select, insert, update, delete',
  );
  t.deepEqual(
    rows.filter((row) => row.more).map((row) => row.relation),
    [],
    'no table: truncate, references, trigger',
  );
  const schemaRights = await as(
    platform.databaseUrl,
    async (client) =>
      (
        await client.query<{ schema: string; usage: boolean; create: boolean }>(
          `select nspname as schema, has_schema_privilege($1, oid, 'USAGE') as usage, has_schema_privilege($1, oid, 'CREATE') as create from pg_namespace where nspname = any($2) order by 1`,
          [servingRole, [...SCHEMAS, JOB_SCHEMA]],
        )
      ).rows,
  );
  t.deepEqual(
    schemaRights,
    [...SCHEMAS, JOB_SCHEMA].sort().map((schema) => ({ schema, usage: true, create: false })),
  );
});

test('the serving role cannot create, alter, drop or truncate a table of core, bpm or dms', async (t) => {
  const tables = await as(platform.databaseUrl, async (client) => {
    const { rows } = await client.query<{ schema: string; name: string }>(
      `select distinct on (schemaname) schemaname as schema, tablename as name from pg_tables where schemaname = any($1) and tablename <> 'mikro_orm_migrations' order by schemaname, tablename`,
      [[...SCHEMAS]],
    );
    return rows;
  });
  t.is(tables.length, SCHEMAS.length);
  await as(servingUrl, async (client) => {
    for (const { schema, name } of tables) {
      const table = `"${schema}"."${name}"`;
      // 42501 insufficient_privilege
      t.is(await failureOf(client, `create table "${schema}".role_probe (id int)`), '42501', `create in ${schema}`);
      t.is(await failureOf(client, `alter table ${table} add column role_probe int`), '42501', `alter ${table}`);
      t.is(await failureOf(client, `drop table ${table}`), '42501', `drop ${table}`);
      t.is(await failureOf(client, `truncate ${table}`), '42501', `truncate ${table}`);
    }
    t.is(await failureOf(client, 'create schema role_probe'), '42501', 'create a schema');
    // and it reads: the migrations it serves on
    const { rows } = await client.query<{ count: number }>('select count(*)::int as count from core.mikro_orm_migrations');
    t.true(rows[0]!.count > 0);
  });
});

test("a table, sequence and function a later migration creates are granted to the serving role by the owner's default privileges", async (t) => {
  await as(platform.databaseUrl, async (client) => {
    await client.query('begin');
    try {
      // as a migration would: the owner creates them in core
      await client.query('create table core.role_default_probe (id serial primary key, note text)');
      await client.query('create function core.role_default_probe_fn() returns int language sql as $$ select 1 $$');
      const { rows } = await client.query<{ dml: boolean; truncate: boolean; sequence: boolean; execute: boolean }>(
        `select has_table_privilege($1, 'core.role_default_probe', 'SELECT') and has_table_privilege($1, 'core.role_default_probe', 'INSERT')
                  and has_table_privilege($1, 'core.role_default_probe', 'UPDATE') and has_table_privilege($1, 'core.role_default_probe', 'DELETE') as dml,
                has_table_privilege($1, 'core.role_default_probe', 'TRUNCATE') as truncate,
                has_sequence_privilege($1, 'core.role_default_probe_id_seq', 'USAGE') and has_sequence_privilege($1, 'core.role_default_probe_id_seq', 'UPDATE') as sequence,
                has_function_privilege($1, 'core.role_default_probe_fn()', 'EXECUTE') as execute`,
        [servingRole],
      );
      t.deepEqual(rows[0], { dml: true, truncate: false, sequence: true, execute: true });
    } finally {
      await client.query('rollback');
    }
  });
});

test('the start check refuses in production a role that owns the tables, naming both variables, warns elsewhere, and passes the serving role', async (t) => {
  // the owner: owns every table of core (and here a superuser)
  await as(platform.databaseUrl, async (client) => {
    const production = keptLog();
    const refused = await t.throwsAsync(checkServingRole(executeOf(client), 'core', 'production', production.log), { instanceOf: ConfigError });
    t.regex(refused.message, /DATABASE_URL/);
    t.regex(refused.message, /DATABASE_OWNER_URL/);
    t.regex(refused.message, new RegExp(`"${ownerRole}"`));
    t.regex(refused.message, /owns \d+ of its tables/);
    t.deepEqual(production.lines, []);

    for (const appEnv of ['development', 'test'] as const) {
      const warned = keptLog();
      await checkServingRole(executeOf(client), 'core', appEnv, warned.log);
      t.is(warned.lines.length, 1, appEnv);
      t.is(warned.lines[0]!.level, 40, 'a warning');
      t.regex(String(warned.lines[0]!.msg), /DATABASE_OWNER_URL/);
    }
  });
  await as(servingUrl, async (client) => {
    const quiet = keptLog();
    await checkServingRole(executeOf(client), 'core', 'production', quiet.log);
    t.deepEqual(quiet.lines, []);
  });
});

test("the job queue's schema is the owner's, installed by it, and the serving role runs the queue; without it the queue refuses to start, naming the command", async (t) => {
  const schema = `pgboss_roles_${randomBytes(4).toString('hex')}`;
  t.teardown(() => as(platform.databaseUrl, (client) => client.query(`drop schema if exists "${schema}" cascade`)));
  const log = createLogger('roles-test', 'silent');
  let ran!: () => void;
  const run = new Promise<void>((resolve) => (ran = resolve));
  const jobs = [defineJob({ name: 'roles.probe', schedule: { everySeconds: 3600 }, run: async () => ran() })];

  // production's worker: nothing migrated here, and nothing there yet
  const refused = await t.throwsAsync(startJobQueue({ url: servingUrl, owner: false, schema, jobs, log }));
  t.regex(refused.message, /npm run migrate -- up/);
  t.regex(refused.message, /DATABASE_OWNER_URL/);

  // elsewhere: the owner installs it and grants the serving role, which runs the queue
  const queue = await startJobQueue({ url: servingUrl, owner: { url: platform.databaseUrl, servingRole }, schema, jobs, log, pollingIntervalSeconds: 0.5 });
  try {
    await queue.sendNow('roles.probe');
    await run;
  } finally {
    await queue.stop();
  }
  await as(servingUrl, async (client) => {
    const facts = await servingRoleFacts(executeOf(client), schema);
    t.deepEqual(servingRoleProblems(facts), [], 'the serving role owns nothing of it');
  });
  const owner = await as(
    platform.databaseUrl,
    async (client) =>
      (await client.query<{ owner: string }>('select nspowner::regrole::text as owner from pg_namespace where nspname = $1', [schema])).rows[0]?.owner,
  );
  t.is(owner, ownerRole);
});

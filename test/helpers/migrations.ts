/**
 * Migrations beneath the platform under test: fresh databases on its server, `npm run migrate` as a
 * process of its own, the schemas' migration locks held and watched from a connection of the test's.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { ExecutionContext } from 'ava';
import pg from 'pg';
import { migrationLockName } from '@platform/service-kit/db/migration-lock.ts';
import { withDatabase } from '../../scripts/lib/pg-client.ts';
import { createFreshDatabase } from '../../scripts/lib/test-database.ts';
import { ROOT_DIR } from '../../scripts/lib/platform-layout.ts';
import { platform } from './platform.ts';

/** An empty database on the platform's server, dropped when the test ends. */
export async function freshDatabase(t: ExecutionContext): Promise<string> {
  const database = await createFreshDatabase(withDatabase(platform.databaseUrl, 'postgres'), 'migrate_test');
  t.teardown(() => database.drop());
  return database.url;
}

/** An empty database as its owner (`url`) and as a serving role of its own (`servingUrl`), both dropped when the test ends. */
export async function servedDatabase(t: ExecutionContext): Promise<{ url: string; servingUrl: string }> {
  const database = await createFreshDatabase(withDatabase(platform.databaseUrl, 'postgres'), 'migrate_test', { servingRole: true });
  t.teardown(() => database.drop());
  return { url: database.url, servingUrl: database.servingUrl };
}

/** The names of a service's migration files, oldest first (what `up` applies). */
export function migrationFiles(service: string): string[] {
  return readdirSync(join(ROOT_DIR, `${service}-svc/src/migrations`))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.slice(0, -3))
    .sort();
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run migrate -- <args>` against `url` (run as npm runs it: node scripts/migrate.ts), or as `database`'s owner granting its serving role. */
export function runMigrate(url: string | { url: string; servingUrl: string }, ...args: string[]): Promise<Finished> {
  const database = typeof url === 'string' ? { DATABASE_URL: url } : { DATABASE_URL: url.servingUrl, DATABASE_OWNER_URL: url.url };
  const child = spawn(process.execPath, [join(ROOT_DIR, 'scripts/migrate.ts'), ...args], {
    cwd: ROOT_DIR,
    env: { PATH: process.env.PATH ?? '', ...database },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const KEY = 'hashtextextended($1, 0)';

/** Takes `schema`'s migration lock on a connection of the test's; resolves to its release. */
export async function holdMigrationLock(t: ExecutionContext, url: string, schema: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`select pg_advisory_lock(${KEY})`, [migrationLockName(schema)]);
  let released: Promise<void> | undefined;
  const release = (): Promise<void> => (released ??= client.end());
  t.teardown(release);
  return release;
}

/** How many sessions wait for `schema`'s migration lock in `url`'s database. */
export async function lockWaiters(url: string, schema: string): Promise<number> {
  const rows = await query<{ waiting: number }>(
    url,
    `select count(*)::int as waiting from pg_locks
      where locktype = 'advisory' and not granted and objsubid = 1 and database = (select oid from pg_database where datname = current_database())
        and classid = ((${KEY} >> 32) & 4294967295)::oid and objid = (${KEY} & 4294967295)::oid`,
    [migrationLockName(schema)],
  );
  return rows[0]?.waiting ?? 0;
}

/** Resolves once `count` sessions wait for `schema`'s migration lock; fails after `timeoutMs`. */
export async function untilWaiting(url: string, schema: string, count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await lockWaiters(url, schema)) < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} sessions waited for the ${schema} migration lock within ${timeoutMs} ms`);
    await delay(50);
  }
}

/** Whether `relation` (`schema.table`) exists in `url`'s database. */
export async function relationExists(url: string, relation: string): Promise<boolean> {
  const rows = await query<{ found: boolean }>(url, 'select to_regclass($1) is not null as found', [relation]);
  return rows[0]?.found ?? false;
}

/**
 * What `schema` holds, as a migration leaves it: its relations (tables, views, indexes, sequences)
 * with their kinds, their columns with types, its constraints, functions, triggers and policies
 * (with their conditions), sorted; the migration table left out.
 */
export async function schemaObjects(url: string, schema: string): Promise<string[]> {
  const rows = await query<{ object: string }>(
    url,
    `select 'relation ' || c.relname || ' ' || c.relkind::text as object from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relname not like 'mikro_orm_migrations%'
     union all
     select 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || case when a.attnotnull then ' not null' else '' end
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'v', 'p') and a.attnum > 0 and not a.attisdropped and c.relname not like 'mikro_orm_migrations%'
     union all
     select 'constraint ' || con.conname from pg_constraint con join pg_namespace n on n.oid = con.connamespace where n.nspname = $1
     union all
     select 'function ' || p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1
     union all
     select 'trigger ' || t.tgname || ' on ' || c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and not t.tgisinternal
     union all
     select 'policy ' || p.policyname || ' on ' || p.tablename || ' using ' || coalesce(p.qual, '') || ' check ' || coalesce(p.with_check, '') from pg_policies p where p.schemaname = $1
     union all
     select 'row security on ' || c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relrowsecurity
     order by 1`,
    [schema],
  );
  return rows.map((row) => row.object);
}

/** Every row of `schema`'s migration table (names, oldest first); none when it does not exist. */
export async function appliedMigrations(url: string, schema: string): Promise<string[]> {
  if (!(await relationExists(url, `${schema}.mikro_orm_migrations`))) return [];
  const rows = await query<{ name: string }>(url, `select name from "${schema}".mikro_orm_migrations order by id`);
  return rows.map((row) => row.name);
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

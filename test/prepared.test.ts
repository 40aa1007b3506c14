/**
 * The scoped hot read (libs/service-kit/src/db/prepared.ts, docs/adr/0152-the-scoped-read-under-one-sync.md):
 * the scope's settings and the read go under one Sync (db/pg-single-sync.ts), one implicit
 * transaction. Tested beneath the API on a pool of its own with ONE connection, as the services
 * connect (DATABASE_URL, the role the row-level security policies apply to): the scope applies to
 * the read and ends with it, a failing read leaves the connection usable, a named statement is
 * parsed once per connection, and the rows are typed as em.execute types them. Through PgBouncer,
 * with the statements unnamed, test/pgbouncer.test.ts.
 */
import test from 'ava';
import pg from 'pg';
import { DriverException, type MikroORM } from '@mikro-orm/postgresql';
import { createOrm } from '@platform/service-kit/db/orm.ts';
import { SINGLE_SYNC } from '@platform/service-kit/db/pg-single-sync.ts';
import { queryPrepared, readInScope, type PreparedStatement } from '@platform/service-kit/db/prepared.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';
import { createAccount } from './helpers/factories.ts';
import { platform } from './helpers/platform.ts';

let orm: MikroORM;

test.before(async () => {
  orm = await createOrm({ url: platform.env.DATABASE_URL!, schema: 'core', entities: [], migrationsDir: '/nonexistent', poolSize: 1 });
});

test.after.always(async () => {
  await orm?.close();
});

const ACCOUNTS: PreparedStatement = {
  name: 'test-prepared-accounts',
  text: 'select account_no from core.account where account_no = any($1) order by account_no',
};
const SETTINGS: PreparedStatement = {
  name: 'test-prepared-settings',
  text: `select current_setting('platform.tenants', true) as tenants, current_setting('platform.user', true) as "user", pg_backend_pid() as pid`,
};

/** The pool's one connection, asked without a scope: what a statement after the scoped read finds there. */
async function bare<T>(text: string): Promise<T[]> {
  const pool = (await orm.em.getConnection().getNativeClient()) as unknown as pg.Pool;
  return (await pool.query(text)).rows as T[];
}

test.serial('the installed pg is the one db/pg-single-sync.ts was written for: the scoped reads go under one Sync', (t) => {
  // a pg upgrade fails here first: read the module against the new client.js and query.js, then move WRITTEN_FOR
  t.true(SINGLE_SYNC);
});

test.serial("a scoped read sees its tenant's row and not another's, and its settings end with it", async (t) => {
  const [mine, theirs] = [await createAccount(), await createAccount()];
  const both = [[mine.accountNo, theirs.accountNo]];
  const rows = await queryPrepared<{ account_no: string }>(scopedFork(orm, { tenants: [mine.crProcessId], user: 'test-user' }), ACCOUNTS, both);
  t.deepEqual(
    rows.map((row) => row.account_no),
    [mine.accountNo],
  );
  t.deepEqual(
    (await queryPrepared<{ account_no: string }>(scopedFork(orm, { tenants: [theirs.crProcessId] }), ACCOUNTS, both)).map((row) => row.account_no),
    [theirs.accountNo],
  );
  t.is((await queryPrepared(scopedFork(orm, { platform: 'job' }), ACCOUNTS, both)).length, 2, "the platform's path sees both");
  // the settings as the read saw them, then on the same connection after it: gone
  const [seen] = await queryPrepared<{ tenants: string; user: string; pid: number }>(
    scopedFork(orm, { tenants: [mine.crProcessId], user: 'test-user' }),
    SETTINGS,
    [],
  );
  t.like(seen, { tenants: `{${mine.crProcessId}}`, user: 'test-user' });
  const [after] = await bare<{ tenants: string | null; user: string | null; pid: number }>(SETTINGS.text);
  t.is(after?.pid, seen?.pid, 'the same connection');
  t.falsy(after?.tenants, 'no tenants setting left on the connection');
  t.falsy(after?.user, 'no user setting left on the connection');
  t.deepEqual(await bare(`select account_no from core.account where account_no = '${mine.accountNo}'`), [], 'and no row seen without a scope');
});

test.serial('a read that fails is a DriverException and leaves the connection usable, its statements still known to it', async (t) => {
  const em = () => scopedFork(orm, { platform: 'job' });
  const [before] = await queryPrepared<{ pid: number }>(em(), SETTINGS, []);
  // fails as it runs (parsed), then as it is parsed (never made): the connection stays, and so does its record of what is parsed
  const running = await t.throwsAsync(queryPrepared(em(), { name: 'test-prepared-division', text: 'select 1 / $1::int as x' }, [0]));
  t.true(running instanceof DriverException, String(running));
  t.regex(running!.message, /division by zero/);
  const parsing = await t.throwsAsync(queryPrepared(em(), { name: 'test-prepared-missing', text: 'select * from core.no_such_table' }, []));
  t.is(parsing?.constructor.name, 'TableNotFoundException');
  t.deepEqual(await queryPrepared(em(), { name: 'test-prepared-division', text: 'select 1 / $1::int as x' }, [1]), [{ x: 1 }]);
  const [after] = await queryPrepared<{ pid: number; tenants: string }>(em(), SETTINGS, []);
  t.is(after?.pid, before?.pid, 'the same connection, kept');
  t.is(after?.tenants, '*');
  t.deepEqual(await bare(`select 'no transaction left open or failed' as state`), [{ state: 'no transaction left open or failed' }]);
});

test.serial('a scoped read is one Sync and no simple query (no begin, no commit), and a named statement is parsed once per connection', async (t) => {
  const sent: string[] = [];
  const connection = pg.Connection.prototype as unknown as Record<'parse' | 'sync' | 'query', (this: unknown, ...args: unknown[]) => void>;
  const originals = { parse: connection.parse, sync: connection.sync, query: connection.query };
  connection.parse = function (...args) {
    sent.push(`parse ${(args[0] as { name: string }).name}`);
    return originals.parse.apply(this, args);
  };
  connection.sync = function (...args) {
    sent.push('sync');
    return originals.sync.apply(this, args);
  };
  connection.query = function (...args) {
    sent.push(`query ${String(args[0])}`);
    return originals.query.apply(this, args);
  };
  const once: PreparedStatement = { name: 'test-prepared-once', text: 'select $1::int + 1 as next' };
  try {
    for (let i = 0; i < 3; i++) t.deepEqual(await queryPrepared(scopedFork(orm, { tenants: [1] }), once, [i]), [{ next: i + 1 }]);
  } finally {
    Object.assign(connection, originals);
  }
  // the scope was parsed on this connection by the tests before: only the read, at its first run
  t.deepEqual(sent, [`parse ${once.name}`, 'sync', 'sync', 'sync']);
  // what the connection itself holds: each name once, as it was parsed
  const held = await bare<{ name: string }>(`select name from pg_prepared_statements where name in ('platform-scope', '${once.name}') order by name`);
  t.deepEqual(
    held.map((row) => row.name),
    ['platform-scope', once.name],
  );
});

test.serial('the rows are typed as em.execute types them: bigint, numeric and timestamps as strings, json parsed, arrays', async (t) => {
  const columns = `$1::bigint as big, 1.50::numeric as num, 7::int as small, timestamptz '2026-01-02 03:04:05.678+00' as at, date '2026-01-02' as day,
    '{"a":[1]}'::jsonb as doc, array[1,2]::int[] as ints, true as yes, null::text as nothing, 'x'::text as text`;
  const [prepared] = await queryPrepared<Record<string, unknown>>(
    scopedFork(orm, { tenants: [1] }),
    { name: 'test-prepared-types', text: `select ${columns}` },
    ['9007199254740993'],
  );
  const [executed] = await scopedFork(orm, { tenants: [1] }).execute<Record<string, unknown>[]>(`select ${columns.replace('$1', '?')}`, ['9007199254740993']);
  t.deepEqual(prepared, executed);
  t.is(prepared?.big, '9007199254740993');
  t.is(typeof prepared?.at, 'string');
});

test.serial("a fork's further settings apply to its named read too, and end with it (the dispatcher's planner settings)", async (t) => {
  const em = scopedFork(orm, { platform: 'webhooks' });
  em.setSessionContext({ variables: { enable_seqscan: 'off' } });
  const PLANNER: PreparedStatement = {
    name: 'test-prepared-planner',
    text: `select current_setting('enable_seqscan') as seqscan, current_setting('platform.tenants', true) as tenants`,
  };
  t.deepEqual(await queryPrepared(em, PLANNER, []), [{ seqscan: 'off', tenants: '*' }]);
  t.deepEqual(await bare(`select current_setting('enable_seqscan') as seqscan`), [{ seqscan: 'on' }], 'not left on the connection');
  t.deepEqual(
    await queryPrepared(scopedFork(orm, { platform: 'webhooks' }), PLANNER, []),
    [{ seqscan: 'on', tenants: '*' }],
    'a fork without it plans as usual',
  );
});

test.serial("a read of MikroORM's SQL in a scope (readInScope) is one query of the connection: the scope's settings and the read together", async (t) => {
  const [mine, theirs] = [await createAccount(), await createAccount()];
  // the pool's one connection, its queries counted: MikroORM's own way would be four (begin, the settings, the read, commit)
  const pool = (await orm.em.getConnection().getNativeClient()) as unknown as pg.Pool;
  const client = await pool.connect();
  let queries = 0;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    queries++;
    return query(...args);
  }) as typeof client.query;
  client.release();
  try {
    const em = scopedFork(orm, { tenants: [mine.crProcessId] });
    const rows = await readInScope<{ account_no: string }>(em, 'select account_no from core.account where account_no in (?, ?) order by account_no', [
      mine.accountNo,
      theirs.accountNo,
    ]);
    t.deepEqual(
      rows.map((row) => row.account_no),
      [mine.accountNo],
    );
    t.is(queries, 1);
  } finally {
    delete (client as { query?: unknown }).query;
  }
  // the settings ended with it
  t.deepEqual(await bare(`select current_setting('platform.tenants', true) as tenants`), [{ tenants: '' }]);
});

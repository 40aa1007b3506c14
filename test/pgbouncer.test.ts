/**
 * What keeps the platform correct behind PgBouncer in transaction mode
 * (docs/adr/0146-through-a-transaction-pooler.md: "no named prepared statements, session advisory
 * locks or session settings outside a transaction"), each against a PgBouncer of the test's own
 * (Debian's pgbouncer 1.18, helpers/pgbouncer.ts) with ONE server connection in front of the
 * suite's database, where every session of the test shares that connection: whatever a session
 * left on it, the next one finds. Each test would fail if the session feature it names came back.
 * The suite's core groups run through PgBouncer too, in test/run.ts's `[pgbouncer]` pass.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import pg from 'pg';
import { DriverException, type MikroORM } from '@mikro-orm/postgresql';
import { ERRORS } from '@tus/utils';
import { STAMP_CHECK } from '@platform/service-kit/auth/access.ts';
import { createOrm } from '@platform/service-kit/db/orm.ts';
import { withMigrationLock } from '@platform/service-kit/db/migration-lock.ts';
import { queryPrepared } from '@platform/service-kit/db/prepared.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';
import { LeaseLocker } from '../dms-svc/src/tus/lease-locker.ts';
import { sql } from './helpers/db.ts';
import { pooledPassArgs, startPgBouncer, THROUGH_PGBOUNCER, type PgBouncer } from './helpers/pgbouncer.ts';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';
import { platform } from './helpers/platform.ts';

// as the platform's processes run in the [pgbouncer] pass: the prepared reads go unnamed (read at the first one)
process.env.DATABASE_POOLING = 'transaction';

let bouncer: PgBouncer;
let url: string;
const orms: MikroORM[] = [];

test.before(async () => {
  bouncer = await startPgBouncer(platform.databaseUrl, { poolSize: 1 });
  url = bouncer.urlOf(platform.databaseUrl);
});

test.after.always(async () => {
  await Promise.all(orms.map((orm) => orm.close()));
  await bouncer?.stop();
});

/** A service's ORM through the test's PgBouncer (its own client pool, as each process has). */
async function ormThroughBouncer(): Promise<MikroORM> {
  const orm = await createOrm({ url, schema: 'dms', entities: [], migrationsDir: '/nonexistent', poolSize: 4 });
  orms.push(orm);
  return orm;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.serial(
  'a named statement is refused once another session named it on the shared server connection; the prepared reads, unnamed under DATABASE_POOLING=transaction, are not',
  async (t) => {
    const first = new pg.Client({ connectionString: url });
    const second = new pg.Client({ connectionString: url });
    await first.connect();
    await second.connect();
    try {
      const named = { name: `pgbouncer-probe-${randomBytes(4).toString('hex')}`, text: 'select 1 as one' };
      t.deepEqual((await first.query(named)).rows, [{ one: 1 }]);
      // the second session has not named it, so it names it again: on the same server connection
      const refused = await t.throwsAsync(second.query(named));
      t.is((refused as Error & { code?: string }).code, '42P05', 'prepared statement already exists');
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    // two services' pools, their reads interleaved on the one server connection
    const [a, b] = [await ormThroughBouncer(), await ormThroughBouncer()];
    const reads = Array.from({ length: 20 }, (_, i) => queryPrepared<{ 'access.stamp': string }>((i % 2 ? a : b).em.fork(), STAMP_CHECK, []));
    const rows = await Promise.all(reads);
    t.true(
      rows.every((found) => found.length === 1 && Number.isInteger(Number(found[0]?.['access.stamp']))),
      JSON.stringify(rows[0]),
    );
  },
);

test.serial(
  'a scoped read goes through PgBouncer as one transaction under one Sync: unnamed, its settings its own on the shared server connection, and gone after it',
  async (t) => {
    const [a, b] = [await ormThroughBouncer(), await ormThroughBouncer()];
    const settings = { name: 'pgbouncer-scoped-settings', text: `select current_setting('platform.tenants', true) as tenants` };
    const parses: string[] = [];
    const connection = pg.Connection.prototype as unknown as { parse(message: { name: string }): void };
    const parse = connection.parse;
    connection.parse = function (this: unknown, message: { name: string }) {
      parses.push(message.name);
      return parse.call(this, message);
    };
    try {
      // two services' pools, their scoped reads (and a failing one) interleaved on the one server connection
      const reads = Array.from({ length: 20 }, (_, i) => queryPrepared<{ tenants: string }>(scopedFork(i % 2 ? a : b, { tenants: [i] }), settings, []));
      const failing = queryPrepared(scopedFork(a, { tenants: [99] }), { name: 'pgbouncer-scoped-failing', text: 'select 1 / 0' }, []).catch(
        (error: unknown) => error,
      );
      t.deepEqual(
        (await Promise.all(reads)).map((rows) => rows[0]?.tenants),
        Array.from({ length: 20 }, (_, i) => `{${i}}`),
      );
      t.true((await failing) instanceof DriverException);
    } finally {
      connection.parse = parse;
    }
    t.deepEqual([...new Set(parses)], [''], 'every statement unnamed');
    const after = new pg.Client({ connectionString: url });
    await after.connect();
    try {
      t.falsy((await after.query<{ tenants: string | null }>(settings.text)).rows[0]?.tenants, 'no setting left on the server connection');
    } finally {
      await after.end();
    }
  },
);

test.serial(
  "a resumable upload's lock holds through PgBouncer: a second lock of it is refused, other uploads lock beside it, and none holds a server connection",
  async (t) => {
    const replicaA = new LeaseLocker(await ormThroughBouncer(), 600);
    const replicaB = new LeaseLocker(await ormThroughBouncer(), 600);
    const [one, two, three] = Array.from({ length: 3 }, () => randomBytes(16).toString('hex'));
    const held = [replicaA.newLock(one!), replicaA.newLock(two!), replicaB.newLock(three!)];
    await Promise.all(held.map((lock) => lock.lock(new AbortController().signal, () => undefined)));
    // three locks held, one server connection, and nothing waits for it: no lock holds one
    const [pool] = await bouncer
      .admin<{ database: string; sv_active: string; cl_waiting: string }>('show pools')
      .then((pools) => pools.filter((row) => row.database === dbName()));
    t.is(Number(pool?.sv_active), 0, 'no server connection is held by a lock');
    t.is(Number(pool?.cl_waiting), 0, 'no client waits for one');
    // a session lock would have been granted again on the same server connection (it is the one session there)
    const again = replicaB.newLock(one!);
    const refused = await again
      .lock(new AbortController().signal, () => undefined)
      .then(
        () => 'locked',
        (error: unknown) => error,
      );
    t.is(refused, ERRORS.ERR_LOCK_TIMEOUT, 'a second lock of a held upload is refused');
    // unlocked on whatever server connection: the other replica takes it
    await held[0]!.unlock();
    await again.lock(new AbortController().signal, () => undefined);
    t.deepEqual(
      (await sql<{ id: string }>('select id from dms.dms_tus_lock where id = any($1) order by id', [[one, two, three]])).map((row) => row.id),
      [one, two, three].sort(),
    );
    await Promise.all([again.unlock(), held[1]!.unlock(), held[2]!.unlock()]);
    t.deepEqual(await sql('select id from dms.dms_tus_lock where id = any($1)', [[one, two, three]]), [], 'each unlock deleted its row');
  },
);

test.serial("a schema's migration lock keeps two migrators apart through PgBouncer", async (t) => {
  const schema = `pgbouncer_probe_${randomBytes(4).toString('hex')}`;
  const order: string[] = [];
  const first = withMigrationLock(url, schema, async () => {
    order.push('first begins');
    await sleep(500);
    order.push('first ends');
  });
  await sleep(150);
  // a session lock, taken and left on the one server connection, would let this one in at once
  const second = withMigrationLock(url, schema, async () => {
    order.push('second begins');
    order.push('second ends');
  });
  await Promise.all([first, second]);
  t.deepEqual(order, ['first begins', 'first ends', 'second begins', 'second ends']);
  // and nothing is left locked: a third takes it at once
  const third = await withMigrationLock(url, schema, async () => 'taken');
  t.is(third, 'taken');
});

test("the [pgbouncer] pass names existing test files, all of them for the whole suite, a selection's own for a selection", (t) => {
  const files = Object.keys(THROUGH_PGBOUNCER);
  t.deepEqual(
    files.filter((file) => !existsSync(join(ROOT_DIR, file))),
    [],
  );
  t.deepEqual(pooledPassArgs([], ROOT_DIR), files);
  t.deepEqual(pooledPassArgs(['--serial', 'test/dms-*.test.ts', 'test/health.test.ts'], ROOT_DIR), [
    '--serial',
    ...files.filter((file) => file.startsWith('test/dms-')),
  ]);
  t.deepEqual(pooledPassArgs(['test/health.test.ts'], ROOT_DIR), []);
});

function dbName(): string {
  return new URL(platform.databaseUrl).pathname.slice(1);
}

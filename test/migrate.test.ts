/**
 * `npm run migrate` (docs/adr/0049-migrations-one-runner-one-lock.md): each service schema's migrations run under its
 * advisory lock, so migrators started together apply every migration once and the later ones wait;
 * `status` lists applied and pending migrations, `down` reverts the last one of the named services.
 * Each test has a fresh database of its own on the platform's server.
 */
import test from 'ava';
import { withClient } from '../scripts/lib/pg-client.ts';
import { SERVICES } from '../scripts/lib/service-schemas.ts';
import { appliedMigrations, freshDatabase, holdMigrationLock, migrationFiles, runMigrate, schemaObjects, untilWaiting } from './helpers/migrations.ts';

test('two migrators started together on a fresh database both succeed, the second waits for the first, and each migration is applied once', async (t) => {
  const url = await freshDatabase(t);
  // Held by the test, so that both are surely under way together before either may migrate.
  const release = await holdMigrationLock(t, url, 'core');
  const migrators = [runMigrate(url, 'up'), runMigrate(url, 'up')];
  await untilWaiting(url, 'core', 2);
  t.deepEqual(await appliedMigrations(url, 'core'), [], 'nothing is applied while the lock is held');
  await release();
  const results = await Promise.all(migrators);

  for (const [i, result] of results.entries()) {
    t.is(result.code, 0, `migrator ${i} succeeds: ${result.stderr}`);
    t.regex(result.stdout, /core: waiting for the migration lock, held by pid \d+/, `migrator ${i} waited`);
  }
  for (const service of SERVICES) {
    const files = migrationFiles(service);
    t.deepEqual(await appliedMigrations(url, service), files, `${service}: every migration applied exactly once, in order`);
    const appliers = results.filter((result) => result.stdout.includes(`${service}: applied `));
    t.is(appliers.length, 1, `${service}: one migrator applied the migrations`);
    for (const name of files) t.true(appliers[0]?.stdout.includes(`${service}: applied ${name}\n`), `${service}: ${name} reported`);
    const waited = results.filter((result) => result.stdout.includes(`${service}: up to date, nothing to apply`));
    t.is(waited.length, 1, `${service}: the other found nothing left to apply`);
  }
});

test('status lists every migration of each service as pending on a fresh database, then as applied after up', async (t) => {
  const url = await freshDatabase(t);
  const before = await runMigrate(url, 'status');
  t.is(before.code, 0, before.stderr);
  for (const service of SERVICES) {
    const files = migrationFiles(service);
    t.true(before.stdout.includes(`${service}: 0 applied, ${files.length} pending\n`), `${service} before: ${before.stdout}`);
    for (const name of files) t.regex(before.stdout, new RegExp(`^  pending +${name}$`, 'm'));
  }
  t.is((await runMigrate(url, 'up')).code, 0);
  const after = await runMigrate(url, 'status');
  t.is(after.code, 0, after.stderr);
  for (const service of SERVICES) {
    const files = migrationFiles(service);
    t.true(after.stdout.includes(`${service}: ${files.length} applied, 0 pending\n`), `${service} after: ${after.stdout}`);
    for (const name of files) t.regex(after.stdout, new RegExp(`^  applied  \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  ${name}$`, 'm'));
  }
  t.notRegex(after.stdout, /pending {2}/);
  const one = await runMigrate(url, 'status', 'dms');
  t.deepEqual(
    one.stdout.split('\n').filter((line) => /^\w+:/.test(line)),
    [`dms: ${migrationFiles('dms').length} applied, 0 pending`],
    'status names only the services asked for',
  );
});

test('down reverts the last migration of the named service only, and up applies it again', async (t) => {
  const url = await freshDatabase(t);
  t.is((await runMigrate(url, 'up')).code, 0);
  const bpm = migrationFiles('bpm');
  const last = bpm.at(-1)!;
  // whatever the last bpm migration made (tables, indexes, functions, triggers) goes, and comes back
  const migrated = await schemaObjects(url, 'bpm');

  const down = await runMigrate(url, 'down', 'bpm');
  t.is(down.code, 0, down.stderr);
  t.is(down.stdout, `bpm: reverted ${last}\n`);
  t.deepEqual(await appliedMigrations(url, 'bpm'), bpm.slice(0, -1));
  const reverted = await schemaObjects(url, 'bpm');
  t.notDeepEqual(reverted, migrated, `reverting ${last} changes the schema`);
  for (const service of ['core', 'dms']) t.deepEqual(await appliedMigrations(url, service), migrationFiles(service), `${service} untouched`);
  const status = await runMigrate(url, 'status', 'bpm');
  t.regex(status.stdout, new RegExp(`^bpm: ${bpm.length - 1} applied, 1 pending\\n(.*\\n)*  pending +${last}\\n$`));

  const up = await runMigrate(url, 'up');
  t.is(up.code, 0, up.stderr);
  t.regex(up.stdout, new RegExp(`^bpm: applied ${last}$`, 'm'));
  t.regex(up.stdout, /^core: up to date, nothing to apply$/m);
  t.deepEqual(await appliedMigrations(url, 'bpm'), bpm);
  t.deepEqual(await schemaObjects(url, 'bpm'), migrated, 'up makes again exactly what down removed');
});

test('down without a service is refused and reverts nothing; an unknown service or command is refused', async (t) => {
  const url = await freshDatabase(t);
  t.is((await runMigrate(url, 'up')).code, 0);
  const down = await runMigrate(url, 'down');
  t.is(down.code, 2);
  t.regex(down.stderr, /down reverts only the services it names/);
  for (const service of SERVICES) t.deepEqual(await appliedMigrations(url, service), migrationFiles(service));
  const unknown = await runMigrate(url, 'up', 'billing');
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, /unknown service billing/);
  t.is((await runMigrate(url, 'sideways')).code, 2);
});

// docs/adr/0065-keys-across-schemas.md: the partner's countryId and cityId are keys into core's schema, so
// bpm's migration that adds them needs core's first, and refuses partners that name no country or
// city of their tenant rather than null what a user entered.
test("the partner keys' migration refuses, saying what to do, a database without core's migrations or with partners naming no country of their tenant; applies once corrected", async (t) => {
  const url = await freshDatabase(t);
  const bpm = migrationFiles('bpm');
  const keys = bpm.findIndex((name) => /partner_places$/.test(name));
  t.true(keys > 0, "bpm has the keys' migration");
  const early = await runMigrate(url, 'up', 'bpm');
  t.not(early.code, 0);
  t.regex(early.stderr + early.stdout, /core's migrations must be applied before bpm's \(npm run migrate -- up core\)/);
  t.false((await appliedMigrations(url, 'bpm')).includes(bpm[keys]!));

  t.is((await runMigrate(url, 'up')).code, 0);
  // down to before the keys: one `down` per migration from the last back to them
  for (let i = bpm.length - 1; i >= keys; i--) t.is((await runMigrate(url, 'down', 'bpm')).code, 0);
  await withClient(url, (db) =>
    db.query(`insert into bpm.business_partner (cr_process_id, partner_code, partner_name, partner_type, country_id, created_at, updated_at, created_by, updated_by)
      values (77, 'P-1', 'Nowhere', 'CUSTOMER', 4242, now(), now(), 'test', 'test')`),
  );
  const refused = await runMigrate(url, 'up', 'bpm');
  t.not(refused.code, 0);
  t.regex(refused.stderr + refused.stdout, /business partners name a country that is not of their tenant; correct their country_id first/);
  t.deepEqual(await appliedMigrations(url, 'bpm'), bpm.slice(0, keys), 'nothing of it applied');

  await withClient(url, (db) => db.query(`update bpm.business_partner set country_id = null where cr_process_id = 77`));
  t.is((await runMigrate(url, 'up', 'bpm')).code, 0);
  t.deepEqual(await appliedMigrations(url, 'bpm'), bpm);
});

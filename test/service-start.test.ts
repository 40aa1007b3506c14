/**
 * How a service meets its migrations at start (docs/adr/0049-migrations-one-runner-one-lock.md): production applies none
 * and refuses to start while one is pending, naming it and the command; it waits while a migrator
 * holds the lock. Development and test migrate at start under the same lock. And production never
 * generates (so never logs) the first admin's password. One service process per test, on a fresh
 * database of its own.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';
import { appliedMigrations, holdMigrationLock, migrationFiles, runMigrate, servedDatabase, untilWaiting } from './helpers/migrations.ts';

interface Outcome {
  /** It reported ready over IPC (then it was stopped), or it exited first with this code. */
  ready: boolean;
  code: number | null;
  output: string;
}

/** The environment of a service process of `appEnv` serving `database` as its serving role, with settings production accepts. */
async function serviceEnv(database: { url: string; servingUrl: string }, appEnv: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    PATH: process.env.PATH ?? '',
    APP_ENV: appEnv,
    DATABASE_URL: database.servingUrl,
    DATABASE_OWNER_URL: database.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    JWT_SECRET: randomBytes(32).toString('hex'),
    CORE_API_KEY: randomBytes(16).toString('hex'),
    DMS_URL_SECRET: randomBytes(32).toString('hex'),
    GATEWAY_CALL_KEY: randomBytes(32).toString('hex'),
    ALLOWED_ORIGINS: 'https://app.acme.com',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'service-start-')),
    // port 0: each service binds any free port and reports it, so none is picked beforehand (and
    // taken meanwhile); nothing here dials the other service
    CORE_GRPC_ADDR: '127.0.0.1:0',
    BPM_GRPC_ADDR: '127.0.0.1:0',
    // any free metrics port: the services of these tests start side by side
    CORE_METRICS_PORT: '0',
    BPM_METRICS_PORT: '0',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

/** Starts `<service>-svc`; resolves when it is ready (and stops it) or when it exits before. */
function startService(t: ExecutionContext, service: 'core' | 'bpm', env: Record<string, string>): { outcome: Promise<Outcome> } {
  const child = spawn(process.execPath, [join(ROOT_DIR, `${service}-svc/src/main.ts`)], { cwd: ROOT_DIR, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const outcome = new Promise<Outcome>((resolve, reject) => {
    let ready = false;
    child.on('message', (message: { type?: string }) => {
      if (message?.type !== 'ready') return;
      ready = true;
      child.kill('SIGTERM');
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ ready, code, output }));
  });
  return { outcome };
}

test('a production service with a pending migration refuses to start, naming the migrations and the command, and applies none; after migrate up it starts', async (t) => {
  const database = await servedDatabase(t);
  const { url } = database;
  // bpm's keys name core's country and city: core's migrations come first, as `migrate up` orders them
  t.is((await runMigrate(database, 'up', 'core')).code, 0);
  const env = await serviceEnv(database, 'production');
  // never migrated: the serving role cannot read the schema at all, and is told what to run
  const unmigrated = await startService(t, 'bpm', env).outcome;
  t.false(unmigrated.ready);
  t.is(unmigrated.code, 1);
  t.true(unmigrated.output.includes('npm run migrate -- up bpm'), unmigrated.output);
  t.true(unmigrated.output.includes('DATABASE_OWNER_URL'), unmigrated.output);
  t.deepEqual(await appliedMigrations(url, 'bpm'), []);

  // migrated, then the last migration reverted: one pending
  t.is((await runMigrate(database, 'up', 'bpm')).code, 0);
  t.is((await runMigrate(database, 'down', 'bpm')).code, 0);
  const all = migrationFiles('bpm');
  const pending = all.slice(-1);
  const { ready, code, output } = await startService(t, 'bpm', env).outcome;
  t.false(ready);
  t.is(code, 1);
  t.true(output.includes(`bpm: 1 pending migration (${pending.join(', ')})`), output);
  t.true(output.includes('npm run migrate -- up bpm'), output);
  t.deepEqual(await appliedMigrations(url, 'bpm'), all.slice(0, -1));

  t.is((await runMigrate(database, 'up', 'bpm')).code, 0);
  const started = await startService(t, 'bpm', env).outcome;
  t.true(started.ready, started.output);
  t.notRegex(started.output, /"msg":"migrated"/);
});

test('a production service that starts during a migration waits for its end, then starts', async (t) => {
  const database = await servedDatabase(t);
  const { url } = database;
  t.is((await runMigrate(database, 'up', 'core')).code, 0);
  const release = await holdMigrationLock(t, url, 'bpm');
  const migrator = runMigrate(database, 'up', 'bpm');
  await untilWaiting(url, 'bpm', 1);
  // Queued behind the migrator: PostgreSQL grants the lock in the order it was asked for.
  const service = startService(t, 'bpm', await serviceEnv(database, 'production'));
  await untilWaiting(url, 'bpm', 2);
  await release();
  const [migrated, started] = await Promise.all([migrator, service.outcome]);
  t.is(migrated.code, 0, migrated.stderr);
  t.true(started.ready, started.output);
  t.regex(started.output, /"msg":"waiting for the migration lock"/);
  t.deepEqual(await appliedMigrations(url, 'bpm'), migrationFiles('bpm'));
});

test('a test-environment service migrates at start, under the migration lock', async (t) => {
  const database = await servedDatabase(t);
  const { url } = database;
  t.is((await runMigrate(database, 'up', 'core')).code, 0);
  const release = await holdMigrationLock(t, url, 'bpm');
  const service = startService(t, 'bpm', await serviceEnv(database, 'test'));
  await untilWaiting(url, 'bpm', 1);
  t.deepEqual(await appliedMigrations(url, 'bpm'), [], 'it waits for the lock before migrating');
  await release();
  const { ready, output } = await service.outcome;
  t.true(ready, output);
  t.deepEqual(await appliedMigrations(url, 'bpm'), migrationFiles('bpm'));
  t.regex(output, /"msg":"migrated"/);
});

test('production core-svc on a database without users refuses to start without ADMIN_PASSWORD, naming it, and logs no password', async (t) => {
  const database = await servedDatabase(t);
  t.is((await runMigrate(database, 'up', 'core')).code, 0);
  const refused = await startService(t, 'core', await serviceEnv(database, 'production')).outcome;
  t.false(refused.ready);
  t.is(refused.code, 1);
  t.regex(refused.output, /ADMIN_PASSWORD/);
  t.notRegex(refused.output, /generatedPassword/);

  const password = randomBytes(12).toString('base64url');
  const started = await startService(t, 'core', await serviceEnv(database, 'production', { ADMIN_PASSWORD: password })).outcome;
  t.true(started.ready, started.output);
  t.regex(started.output, /bootstrap: created account DEFAULT and super user/);
  t.false(started.output.includes(password), 'the password given is not logged either');
  t.notRegex(started.output, /generatedPassword/);
});

test('a service serving as the owner of its tables is refused in production, naming DATABASE_URL and DATABASE_OWNER_URL, and warned about in test', async (t) => {
  const database = await servedDatabase(t);
  t.is((await runMigrate(database, 'up', 'core', 'bpm')).code, 0);
  // one role for both: DATABASE_URL is the owner's
  const asOwner = { url: database.url, servingUrl: database.url };
  const refused = await startService(t, 'bpm', await serviceEnv(asOwner, 'production')).outcome;
  t.false(refused.ready);
  t.is(refused.code, 1);
  t.regex(refused.output, /owns the schema, owns \d+ of its tables on schema bpm/);
  t.regex(refused.output, /DATABASE_URL/);
  t.regex(refused.output, /DATABASE_OWNER_URL/);

  const warned = await startService(t, 'bpm', await serviceEnv(asOwner, 'test')).outcome;
  t.true(warned.ready, warned.output);
  t.regex(warned.output, /"level":"warn".*row-level security would not apply to it/);

  // the serving role: no warning
  const served = await startService(t, 'bpm', await serviceEnv(database, 'production')).outcome;
  t.true(served.ready, served.output);
  t.notRegex(served.output, /row-level security would not apply/);
});

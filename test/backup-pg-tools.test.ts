/**
 * Which pg_dump and pg_restore a backup or restore runs (scripts/lib/backup-pg-tools.ts), and where it
 * looks for the database without DATABASE_URL (scripts/lib/backup-target.ts): a tool older than the
 * server (or the archive) is refused with what was found and what to install.
 */
import test from 'ava';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { candidateDirs, chooseTool, toolsIn } from '../scripts/lib/backup-pg-tools.ts';
import { resolveTarget } from '../scripts/lib/backup-target.ts';

/** A folder with a `pg_dump` that reports `version`. */
async function fakeTool(version: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-pg-tool-'));
  await writeFile(join(dir, 'pg_dump'), `#!/bin/sh\necho '${version}'\n`);
  await chmod(join(dir, 'pg_dump'), 0o755);
  return dir;
}

test('a pg_dump older than the server is refused, naming the major needed, what was found, and the remedy', (t) => {
  const error = t.throws(() =>
    chooseTool('pg_dump', [{ path: '/usr/bin/pg_dump', version: 'pg_dump (PostgreSQL) 15.20', major: 15 }], 18, 'the server is PostgreSQL 18.1'),
  );
  t.regex(error.message, /pg_dump 18 or later is needed \(the server is PostgreSQL 18\.1\)/);
  t.regex(error.message, /\/usr\/bin\/pg_dump \(15\)/);
  t.regex(error.message, /postgresql-client-18/);
  t.regex(error.message, /PG_BIN_DIR/);
  t.regex(t.throws(() => chooseTool('pg_restore', [], 15, 'x')).message, /no pg_restore was found/);
});

test('the first candidate of at least the major needed is chosen, in the order the folders were given', (t) => {
  const found = [
    { path: '/a/pg_dump', version: '', major: 14 },
    { path: '/b/pg_dump', version: '', major: 18 },
    { path: '/c/pg_dump', version: '', major: 17 },
  ];
  t.is(chooseTool('pg_dump', found, 15, '').path, '/b/pg_dump');
  t.is(chooseTool('pg_dump', found, 14, '').path, '/a/pg_dump');
});

test('PG_BIN_DIR alone is searched when set; otherwise the embedded binaries come before the PATH', (t) => {
  t.deepEqual(candidateDirs({ PG_BIN_DIR: '/opt/pg/bin', PATH: '/usr/bin' }, '/embedded/bin'), ['/opt/pg/bin']);
  const dirs = candidateDirs({ PATH: '/usr/local/bin:/usr/bin' }, '/embedded/bin');
  t.is(dirs[0], '/embedded/bin');
  t.deepEqual(dirs.slice(-2), ['/usr/local/bin', '/usr/bin']);
});

test("a tool's major is read from its --version; one that does not run, or says no version, is passed over", async (t) => {
  const eighteen = await fakeTool('pg_dump (PostgreSQL) 18.4');
  const garbled = await fakeTool('something else');
  try {
    const found = await toolsIn('pg_dump', [garbled, join(eighteen, 'missing'), eighteen, eighteen]);
    t.deepEqual(
      found.map((tool) => [tool.path, tool.major]),
      [[join(eighteen, 'pg_dump'), 18]],
    );
  } finally {
    await rm(eighteen, { recursive: true, force: true });
    await rm(garbled, { recursive: true, force: true });
  }
});

test('without DATABASE_URL a backup needs the embedded cluster of DATA_DIR, and says so when there is none', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-no-cluster-'));
  try {
    const error = await t.throwsAsync(resolveTarget({ DATA_DIR: dataDir }, true, async () => false));
    t.regex(error.message, /DATABASE_URL is not set and .*pg holds no embedded PostgreSQL/);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('DMS_STORAGE=s3 makes the target the bucket dms-svc reads (DMS_S3_*), refused without one; DMS_STORAGE=local and unset are the folder', async (t) => {
  const s3 = await resolveTarget(
    { DATABASE_URL: 'postgres://x/y', DMS_STORAGE: 's3', DMS_S3_BUCKET: 'files', DMS_S3_ENDPOINT: 'http://127.0.0.1:1' },
    true,
    async () => true,
  );
  t.is(s3.bucket?.bucket, 'files');
  await t.throwsAsync(
    resolveTarget({ DATABASE_URL: 'postgres://x/y', DMS_STORAGE: 's3' }, true, async () => true),
    { message: /DMS_S3_BUCKET/ },
  );
  for (const storage of ['local', undefined]) {
    const local = await resolveTarget({ DATABASE_URL: 'postgres://x/y', DMS_STORAGE: storage, DMS_STORAGE_DIR: '/srv/files' }, true, async () => true);
    t.is(local.storageDir, '/srv/files');
    t.is(local.bucket, undefined);
  }
});

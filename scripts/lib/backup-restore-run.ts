/**
 * One restore of a backup folder (backup-run.ts) into the database and the file folder (or the
 * bucket, under DMS_STORAGE=s3) of a target
 * (docs/adr/0091-backup-and-restore.md): every part is checked against the manifest's SHA-256
 * before anything is touched; a target that holds data is refused unless `force`; the files go in
 * first, each whole (a temporary name, flushed, renamed), then the schemas are dropped and the dump
 * restored in one pg_restore transaction; last, every restored file is read back and checked.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { copyWhole, digestOf, digestOfStream, synced } from './backup-files.ts';
import { type Manifest, readManifest, STORED_NAME } from './backup-manifest.ts';
import { candidateDirs, chooseTool, toolsIn } from './backup-pg-tools.ts';
import { runTool } from './backup-run.ts';
import { clientConnection, type Target } from './backup-target.ts';
import { grantServingRole } from '@platform/service-kit/db/serving-grants.ts';

type Env = Record<string, string | undefined>;

/** An upload's temporary name in DMS_STORAGE_DIR (dms-svc/src/files/storage.ts): also what a restore writes under, so a crash's leftover is swept. */
const TEMPORARY_NAME = /^\.upload-[0-9a-f-]{36}\.part$/;

export interface RestoreOptions {
  dir: string;
  target: Target;
  env: Env;
  /** Replace a target that holds data (schemas with tables, stored files). */
  force: boolean;
  say: (line: string) => void;
}

/** Restores `dir` into `target`; resolves with the manifest restored. */
export async function runRestore({ dir, target, env, force, say }: RestoreOptions): Promise<Manifest> {
  const manifest = await readManifest(dir);
  await verifyBackup(dir, manifest);
  say(
    `backup of ${manifest.createdAt} (snapshot ${manifest.snapshotId}, platform ${manifest.platformVersion}): ${manifest.files.length} file(s) and the dump verified`,
  );

  const pgRestore = chooseTool(
    'pg_restore',
    await toolsIn('pg_restore', candidateDirs(env, target.embeddedBinDir)),
    manifest.pgDump.major,
    `the dump was made by pg_dump ${manifest.pgDump.major}, and pg_restore reads no archive of a later major than its own`,
  );
  const bucket = target.bucket;
  const where = bucket ? `the bucket ${bucket.bucket}` : target.storageDir;
  if (!bucket) await mkdir(target.storageDir, { recursive: true });
  const held = await heldData(target, manifest.schemas);
  if (held.length > 0 && !force) {
    throw new Error(`${held.join('; ')}: restore replaces them only with --force (they are then lost)`);
  }
  const others = await otherSessions(target);
  if (others.length > 0) {
    throw new Error(`${others.length} other session(s) use the database (${others.join(', ')}): stop the platform before a restore`);
  }
  if (held.length > 0) say(`--force: replacing ${held.join('; ')}`);

  // the files first: a failure here leaves the database as it was
  const wanted = new Set<string>();
  for (const file of manifest.files) {
    const name = file.path.split('/')[1]!;
    wanted.add(name);
    // an object appears whole or not at all
    if (bucket) await bucket.putStored(name, createReadStream(join(dir, file.path)));
    else await copyWhole(join(dir, file.path), join(target.storageDir, name), join(target.storageDir, `.upload-${randomUUID()}.part`), target.storageDir);
  }
  say(`${manifest.files.length} file(s) restored into ${where}`);

  await withClient(target.url, async (client) => {
    await client.query('BEGIN');
    await client.query(`drop schema if exists ${manifest.schemas.map((schema) => client.escapeIdentifier(schema)).join(', ')} cascade`);
    // extensions living elsewhere (public) are not in the dump, but its indexes may use them
    for (const { name, schema } of manifest.extensions.filter((extension) => !manifest.schemas.includes(extension.schema))) {
      await client.query(`create extension if not exists ${client.escapeIdentifier(name)} schema ${client.escapeIdentifier(schema)}`);
    }
    await client.query('COMMIT');
  });
  const connection = clientConnection(target.url, env);
  // owners and grants are the target's: the restoring user (the owner's, DATABASE_OWNER_URL's) owns what it restores
  await runTool(
    pgRestore.path,
    ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', `--dbname=${connection.dbname}`, join(dir, manifest.database.path)],
    connection.env,
  );
  say(`database restored into ${target.describe} (${pgRestore.path}, ${pgRestore.major})`);
  // the dump's grants were left out: the serving role is granted the restored schemas as a migration grants them
  if (target.servingRole) {
    const role = target.servingRole;
    await withClient(target.url, async (client) => {
      for (const schema of manifest.schemas) await grantServingRole(async (sql, params) => (await client.query(sql, params)).rows, schema, role);
    });
    say(`${role} granted ${manifest.schemas.join(', ')} again`);
  }

  // what the storage held beyond the backup belonged to the replaced data
  let removed = 0;
  if (bucket) {
    // unfinished multipart uploads are left to dms-svc's storage sweep
    for await (const entry of bucket.entries()) {
      if (entry.kind === 'stored' && !wanted.has(entry.name)) {
        await bucket.remove(entry.name);
        removed++;
      }
    }
  } else {
    for (const entry of await readdir(target.storageDir)) {
      if ((STORED_NAME.test(entry) && !wanted.has(entry)) || TEMPORARY_NAME.test(entry)) {
        await unlink(join(target.storageDir, entry)).catch(() => undefined);
        removed++;
      }
    }
    if (removed > 0) await synced(target.storageDir, true);
  }

  for (const file of manifest.files) {
    const name = file.path.split('/')[1]!;
    const digest = bucket ? await digestOfStream(await bucket.readStored(name)) : await digestOf(join(target.storageDir, name));
    if (digest.sha256 !== file.sha256 || digest.size !== file.size)
      throw new Error(`restored ${file.path} does not match the manifest: ${bucket ? 'the bucket' : "the file folder's disk"} is suspect`);
  }
  say(`every restored file matches its SHA-256${removed > 0 ? `; ${removed} file(s) of the replaced data removed` : ''}`);
  return manifest;
}

/** Checks the dump and every file against the manifest; throws naming the first that differs. */
async function verifyBackup(dir: string, manifest: Manifest): Promise<void> {
  for (const part of [manifest.database, ...manifest.files]) {
    let digest;
    try {
      digest = await digestOf(join(dir, part.path));
    } catch (error) {
      throw new Error(`${join(dir, part.path)} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): the backup is incomplete`, {
        cause: error,
      });
    }
    if (digest.size !== part.size || digest.sha256 !== part.sha256)
      throw new Error(`${join(dir, part.path)} does not match the manifest's size and SHA-256: the backup is damaged`);
  }
}

/** What of the target holds data: the schemas' tables, the storage's stored files. Empty when nothing. */
async function heldData(target: Target, schemas: string[]): Promise<string[]> {
  const held: string[] = [];
  const tables = await withClient(target.url, (client) =>
    client.query<{ count: string }>(
      `select count(*) as count from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = any($1) and c.relkind in ('r', 'p')`,
      [schemas],
    ),
  );
  const count = Number(tables.rows[0]?.count ?? 0);
  if (count > 0) held.push(`${target.describe} has ${count} table(s) in ${schemas.join(', ')}`);
  if (target.bucket) {
    let stored = 0;
    for await (const entry of target.bucket.entries()) if (entry.kind === 'stored') stored++;
    if (stored > 0) held.push(`the bucket ${target.bucket.bucket} holds ${stored} file(s)`);
  } else {
    const stored = (await readdir(target.storageDir)).filter((entry) => STORED_NAME.test(entry) || TEMPORARY_NAME.test(entry));
    if (stored.length > 0) held.push(`${target.storageDir} holds ${stored.length} file(s)`);
  }
  return held;
}

/**
 * The application names of the other sessions on the target's database: a platform still running
 * would write between the drop and the restore, and its open transactions would hold the drop up.
 */
async function otherSessions(target: Target): Promise<string[]> {
  const sessions = await withClient(target.url, (client) =>
    client.query<{ name: string }>(
      `select coalesce(nullif(application_name, ''), usename, 'unnamed') as name from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    ),
  );
  return sessions.rows.map((row) => row.name);
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'platform restore' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

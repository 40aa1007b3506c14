/**
 * One backup: the platform's schemas as PostgreSQL's own dump, and the DMS files that dump's rows
 * name, read from one database snapshot so that the two agree
 * (docs/adr/0091-backup-and-restore.md).
 *
 * A REPEATABLE READ transaction exports its snapshot (`pg_export_snapshot()`) and stays open while
 * `pg_dump --snapshot` dumps in it and the same transaction lists the dms_file rows: the dump and
 * the list see exactly the same rows. An upload renames its bytes to the stored name before its row
 * commits (dms-svc/src/files/store-upload.ts), so every row of the snapshot has its whole file on
 * the disk, and a file whose row commits after the snapshot is not listed: it is wholly out. Files
 * are immutable under their stored names, each copy is checked against the row's SHA-256.
 * Retention's purge removes bytes after the commit that deleted their row, so a file listed by the
 * snapshot may vanish during the copy: the backup then starts over on a new snapshot (which no
 * longer names it), up to three times; a file that is missing while its row still exists is lost
 * data, and the backup fails naming it rather than leave it out.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { copyWhole, digestOf, synced } from './backup-files.ts';
import { DUMP_NAME, FILES_DIR, type Manifest, MANIFEST_FORMAT, type ManifestFile, STORED_NAME, writeManifest } from './backup-manifest.ts';
import { candidateDirs, chooseTool, toolsIn } from './backup-pg-tools.ts';
import { clientConnection, ROOT, type Target } from './backup-target.ts';

type Env = Record<string, string | undefined>;

/** The schemas backed up: each service's (scripts/lib/service-schemas.ts), its migrations table included (`<schema>.mikro_orm_migrations`). */
export const PLATFORM_SCHEMAS = ['core', 'bpm', 'dms'] as const;

function isPlatformSchema(schema: string): boolean {
  return (PLATFORM_SCHEMAS as readonly string[]).includes(schema);
}

/** Fresh snapshots tried when files vanish under a purge during the copy. */
const ATTEMPTS = 3;
/**
 * The PostgreSQL connections a backup holds at once: the client whose snapshot it exports, and
 * pg_dump's one (custom format, no --jobs). The connection budget counts them
 * (test/deploy-connection-budget.test.ts).
 */
export const BACKUP_CONNECTIONS = 2;
/** dms_file rows read per query in the snapshot. */
const PAGE = 1000;

export interface BackupOptions {
  dir: string;
  target: Target;
  env: Env;
  say: (line: string) => void;
}

interface FileRow {
  id: string;
  stored_file_name: string;
  file_size: string | null;
  checksum: string | null;
}

/** Makes the backup in `dir` (empty or missing); resolves with its manifest, written last. */
export async function runBackup(options: BackupOptions): Promise<Manifest> {
  const { dir, say } = options;
  await assertEmptyFolder(dir);
  try {
    for (let attempt = 1; ; attempt++) {
      const outcome = await attemptBackup(options);
      if (outcome.manifest) return outcome.manifest;
      const purged = outcome.purged ?? [];
      if (attempt >= ATTEMPTS)
        throw new Error(`files kept vanishing under retention's purge during ${ATTEMPTS} attempts (last: ${purged.slice(0, 5).join(', ')})`);
      say(`${purged.length} file(s) were purged after the snapshot: starting over on a new snapshot`);
      await clearFolder(dir);
    }
  } catch (error) {
    // the folder was empty: left empty again, so the same command can be run once the cause is fixed
    await clearFolder(dir).catch(() => undefined);
    throw error;
  }
}

async function attemptBackup({ dir, target, env, say }: BackupOptions): Promise<{ manifest?: Manifest; purged?: string[] }> {
  const filesDir = join(dir, FILES_DIR);
  await mkdir(filesDir, { recursive: true });
  const client = new pg.Client({ connectionString: target.url, application_name: 'platform backup' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const snapshot = await client.query<{ id: string; version: string; num: string; now: Date }>(
      `select pg_export_snapshot() as id, current_setting('server_version') as version, current_setting('server_version_num') as num, now() as now`,
    );
    const { id: snapshotId, version: serverVersion, num, now } = snapshot.rows[0]!;
    const serverMajor = Math.floor(Number(num) / 10_000);
    const schemas = await client.query<{ nspname: string }>('select nspname from pg_namespace where nspname = any($1)', [[...PLATFORM_SCHEMAS]]);
    const absent = PLATFORM_SCHEMAS.filter((schema) => !schemas.rows.some((row) => row.nspname === schema));
    if (absent.length > 0) throw new Error(`${target.describe} has no schema ${absent.join(', ')}: migrate it first (npm run migrate -- up)`);
    const extensions = await client.query<{ name: string; schema: string }>(
      `select e.extname as name, n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname <> 'plpgsql' order by e.extname`,
    );

    const pgDump = chooseTool(
      'pg_dump',
      await toolsIn('pg_dump', candidateDirs(env, target.embeddedBinDir)),
      serverMajor,
      `the server is PostgreSQL ${serverVersion}, and pg_dump refuses a server of a later major than its own`,
    );
    say(`snapshot ${snapshotId} of ${target.describe} (PostgreSQL ${serverVersion}); ${pgDump.path} (${pgDump.major}) dumps ${PLATFORM_SCHEMAS.join(', ')}`);

    const dumpTemporary = join(dir, `${DUMP_NAME}.part`);
    const connection = clientConnection(target.url, env);
    const dumped = runTool(
      pgDump.path,
      [
        '--format=custom',
        `--snapshot=${snapshotId}`,
        ...PLATFORM_SCHEMAS.map((schema) => `--schema=${schema}`),
        // an extension is dumped with --schema only when named: pg_trgm lives in bpm, and bpm's indexes use it
        ...extensions.rows.filter((extension) => isPlatformSchema(extension.schema)).map((extension) => `--extension=${extension.name}`),
        `--file=${dumpTemporary}`,
        `--dbname=${connection.dbname}`,
      ],
      connection.env,
    );
    // the copy runs while pg_dump dumps: both read the same snapshot, held by this transaction
    const copied = await copyNamedFiles(client, target, filesDir, say).finally(() => dumped.catch(() => undefined));
    await dumped;
    await rename(dumpTemporary, join(dir, DUMP_NAME));
    await synced(dir, true);
    await client.query('COMMIT');

    if (copied.missing.length > 0) {
      const still = await client.query<{ stored_file_name: string }>('select stored_file_name from dms.dms_file where stored_file_name = any($1)', [
        copied.missing,
      ]);
      if (still.rows.length > 0) {
        const lost = still.rows.map((row) => row.stored_file_name);
        throw new Error(
          `dms_file rows name ${lost.length} file(s) missing from ${target.bucket ? `the bucket ${target.bucket.bucket}` : target.storageDir}: ${lost.slice(0, 10).join(', ')}; the backup leaves none out`,
        );
      }
      return { purged: copied.missing };
    }
    const dumpDigest = await digestOf(join(dir, DUMP_NAME));
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      platformVersion: platformVersion(),
      createdAt: new Date(now).toISOString(),
      snapshotId,
      server: { version: serverVersion, major: serverMajor },
      pgDump: { version: pgDump.version, major: pgDump.major },
      schemas: [...PLATFORM_SCHEMAS],
      extensions: extensions.rows,
      database: { path: DUMP_NAME, ...dumpDigest },
      files: copied.files,
    };
    await writeManifest(dir, manifest);
    return { manifest };
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/**
 * Copies every file the snapshot's dms_file rows name (soft-deleted ones too: their bytes stay until
 * the purge) into `filesDir`, each checked against its row's size and SHA-256. A file missing from
 * the storage is listed in `missing`, not skipped silently.
 */
async function copyNamedFiles(
  client: pg.Client,
  target: Target,
  filesDir: string,
  say: (line: string) => void,
): Promise<{ files: ManifestFile[]; missing: string[] }> {
  const files: ManifestFile[] = [];
  const missing: string[] = [];
  let bytes = 0;
  const { storageDir, bucket } = target;
  const where = bucket ? `the bucket ${bucket.bucket}` : storageDir;
  // a stored file's bytes: its object under DMS_STORAGE=s3 (a missing one reads as ENOENT), else its file
  const sourceOf = async (name: string) => {
    if (!bucket) return join(storageDir, name);
    try {
      return await bucket.readStored(name);
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey') throw Object.assign(new Error(`${name} is not in ${where}`), { code: 'ENOENT' });
      throw error;
    }
  };
  for (let after = '0'; ;) {
    const page = await client.query<FileRow>(
      `select id, stored_file_name, file_size, checksum from dms.dms_file where stored_file_name is not null and id > $1 order by id limit ${PAGE}`,
      [after],
    );
    for (const row of page.rows) {
      const name = row.stored_file_name;
      if (!STORED_NAME.test(name)) throw new Error(`dms_file ${row.id} names ${name.slice(0, 80)}, not a stored file name`);
      let digest;
      try {
        digest = await copyWhole(await sourceOf(name), join(filesDir, name), join(filesDir, `.${name}.part`), filesDir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          missing.push(name);
          continue;
        }
        throw error;
      }
      if (row.file_size !== null && Number(row.file_size) !== digest.size) {
        throw new Error(`dms_file ${row.id} (${name}) records ${row.file_size} bytes, ${where} holds ${digest.size}`);
      }
      if (row.checksum !== null && row.checksum !== digest.sha256)
        throw new Error(`dms_file ${row.id} (${name}): the stored bytes do not match the row's SHA-256`);
      files.push({ path: `${FILES_DIR}/${name}`, size: digest.size, sha256: digest.sha256 });
      bytes += digest.size;
    }
    if (page.rows.length < PAGE) break;
    after = page.rows.at(-1)!.id;
  }
  say(`${files.length} file(s), ${bytes} bytes copied${missing.length > 0 ? `; ${missing.length} missing` : ''}`);
  return { files, missing };
}

/** Runs a PostgreSQL client program; rejects with its stderr when it fails. */
export function runTool(path: string, args: string[], env: Env): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(path, args, { env: { ...env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolveRun();
      else reject(new Error(`${path} failed (${signal ? `signal ${signal}` : `code ${code}`}): ${stderr.trim()}`));
    });
  });
}

/** package.json's version. */
function platformVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

async function assertEmptyFolder(dir: string): Promise<void> {
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error(`${dir} is not a folder`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return mkdir(dir, { recursive: true }).then(() => undefined);
    throw error;
  }
  if ((await readdir(dir)).length > 0) throw new Error(`${dir} is not empty: a backup goes into a new or empty folder`);
}

async function clearFolder(dir: string): Promise<void> {
  for (const entry of await readdir(dir)) await rm(join(dir, entry), { recursive: true, force: true });
}

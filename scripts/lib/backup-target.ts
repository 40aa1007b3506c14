/**
 * The database and the file folder (or, under DMS_STORAGE=s3, the bucket) a backup reads and a
 * restore writes, found as the platform finds them: the schema owner's connection
 * (DATABASE_OWNER_URL, else DATABASE_URL: the owner reads every row, row-level security aside, and
 * owns what it restores; docs/adr/0150-a-serving-role-apart-from-the-owner.md) and DMS_STORAGE_DIR (or the
 * DMS_S3_* settings) when set; otherwise `npm start`'s embedded
 * PostgreSQL (DATA_DIR/pg, EMBEDDED_PG_PORT, its password beside it) and DATA_DIR/files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readStorage } from '@platform/dms-svc/config.ts';
import { S3FileStorage } from '@platform/dms-svc/files/s3-storage.ts';
import { databaseOwnerUrlOf, servingRoleOf } from '@platform/service-kit/config/database-url.ts';

type Env = Record<string, string | undefined>;

/** Repository root (scripts/lib → ../..). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Target {
  /** The connection URL, password included (never printed: `describe` is). */
  url: string;
  /** How to name it in messages. */
  describe: string;
  /** DATABASE_URL's user when it is not the owner's: granted the restored schemas again (a restore takes no privileges). */
  servingRole?: string;
  /** The embedded server's own binaries' folder, when the server is the embedded one. */
  embeddedBinDir?: string;
  storageDir: string;
  /** Under DMS_STORAGE=s3, the bucket the files are objects of (storageDir is then not theirs). */
  bucket?: S3FileStorage;
  /** Stops an embedded server this run started (it was not running); otherwise nothing. */
  release(): Promise<void>;
}

/**
 * The target of `env`. With DATABASE_URL unset, the embedded server is used if it answers (`npm
 * start` is running); if it does not, it is started for this run and stopped by `release` — a
 * restore may initialise it, a backup (`mustExist`) refuses a cluster that was never made.
 */
export async function resolveTarget(env: Env, mustExist: boolean, probe: (url: string) => Promise<boolean>): Promise<Target> {
  const dataDir = resolve(env.DATA_DIR || join(ROOT, '.data'));
  const storageDir = resolve(env.DMS_STORAGE_DIR || join(dataDir, 'files'));
  const nothing = async (): Promise<void> => undefined;
  // as dms-svc reads it (dms-svc/src/config.ts): the folder, or a bucket
  const storage = readStorage(env);
  const bucket = storage.kind === 's3' ? { bucket: new S3FileStorage(storage, storageDir) } : {};
  if (env.DATABASE_URL) {
    const url = databaseOwnerUrlOf(env);
    return { url, describe: redacted(url), servingRole: servingRoleOf(env), storageDir, ...bucket, release: nothing };
  }

  const port = Number(env.EMBEDDED_PG_PORT || 54329);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`EMBEDDED_PG_PORT must be a port number, not ${env.EMBEDDED_PG_PORT}`);
  const clusterDir = join(dataDir, 'pg');
  const passwordFile = `${clusterDir}.password`;
  const { packagedBinaries } = await import('./postgres-binaries.ts');
  const embeddedBinDir = join(packagedBinaries(), 'bin');
  const describe = `the embedded PostgreSQL of ${clusterDir} (127.0.0.1:${port})`;
  const initialised = existsSync(join(clusterDir, 'PG_VERSION'));
  if (!initialised && mustExist) throw new Error(`DATABASE_URL is not set and ${clusterDir} holds no embedded PostgreSQL: nothing to back up`);
  if (initialised && existsSync(passwordFile)) {
    const url = `postgres://postgres:${encodeURIComponent(readFileSync(passwordFile, 'utf8').trim())}@127.0.0.1:${port}/platform`;
    if (await probe(url)) return { url, describe, embeddedBinDir, storageDir, ...bucket, release: nothing };
  }
  // not running (npm start is not): started for this run, as npm start would start it
  const { startEmbeddedPostgres } = await import('./embedded-postgres.ts');
  const server = await startEmbeddedPostgres({ dataDir: clusterDir, port });
  return { url: server.url, describe: `${describe}, started for this run`, embeddedBinDir, storageDir, ...bucket, release: server.stop };
}

/** `url` without its password. */
export function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * The URL and environment for a PostgreSQL client program: the password travels in PGPASSWORD,
 * not on the command line where `ps` shows it.
 */
export function clientConnection(url: string, env: Env): { dbname: string; env: Env } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...env, ...(password ? { PGPASSWORD: password } : {}) } };
}

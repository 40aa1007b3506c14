/**
 * The manifest of a backup folder (`manifest.json`): what the folder holds and the SHA-256 of each
 * part, so that a restore can tell a whole, untouched backup from anything else before it changes
 * the database or the files. It is written last: a folder without one is an unfinished backup.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { synced } from './backup-files.ts';

export const MANIFEST_NAME = 'manifest.json';
export const DUMP_NAME = 'database.dump';
export const FILES_DIR = 'files';
/** Bumped when the layout changes; a restore refuses a format it does not know. */
export const MANIFEST_FORMAT = 1;

/** A stored file name as dms-svc generates it (dms-svc/src/files/storage.ts): nothing else is ever copied. */
export const STORED_NAME = /^[0-9a-f-]{36}$/;

export interface ManifestFile {
  /** `files/<stored name>`, relative to the backup folder. */
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  /** package.json's version of the platform that made the backup. */
  platformVersion: string;
  /** When the database snapshot was taken (ISO 8601). */
  createdAt: string;
  /** The exported snapshot both the dump and the list of files were read in. */
  snapshotId: string;
  /** The server's `server_version`, and the pg_dump that read it (`pg_dump --version`). */
  server: { version: string; major: number };
  pgDump: { version: string; major: number };
  schemas: string[];
  /** Extensions the schemas' objects use, with the schema each lives in (created before a restore when missing). */
  extensions: { name: string; schema: string }[];
  database: { path: string; size: number; sha256: string };
  files: ManifestFile[];
}

/** Writes the manifest through a temporary name, flushed, then renamed into place. */
export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const temporary = join(dir, `${MANIFEST_NAME}.part`);
  await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  await synced(temporary, false);
  await rename(temporary, join(dir, MANIFEST_NAME));
  await synced(dir, true);
}

/** Reads and checks the manifest of `dir`; throws naming what is wrong. */
export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_NAME), 'utf8');
  } catch (error) {
    throw new Error(`${join(dir, MANIFEST_NAME)} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): not a finished backup`, {
      cause: error,
    });
  }
  const manifest = JSON.parse(text) as Manifest;
  const problem = manifestProblem(manifest);
  if (problem) throw new Error(`${join(dir, MANIFEST_NAME)}: ${problem}`);
  return manifest;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** What makes `value` no manifest this restore can trust, or undefined. */
function manifestProblem(value: Manifest): string | undefined {
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  if (value.format !== MANIFEST_FORMAT) return `format ${String(value.format)}, this restore reads format ${MANIFEST_FORMAT}`;
  if (typeof value.snapshotId !== 'string' || typeof value.createdAt !== 'string') return 'no snapshotId or createdAt';
  if (!Number.isInteger(value.pgDump?.major)) return 'no pgDump.major';
  if (!Array.isArray(value.schemas) || !value.schemas.every((schema) => /^[a-z_][a-z0-9_]*$/.test(schema))) return 'schemas is not a list of schema names';
  if (!Array.isArray(value.extensions) || !value.extensions.every((e) => /^[a-z_][a-z0-9_]*$/.test(e.name) && /^[a-z_][a-z0-9_]*$/.test(e.schema))) {
    return 'extensions is not a list of {name, schema}';
  }
  if (value.database?.path !== DUMP_NAME || !SHA256.test(value.database.sha256) || !Number.isInteger(value.database.size)) return 'database entry malformed';
  if (!Array.isArray(value.files)) return 'files is not a list';
  for (const file of value.files) {
    const [folder, name, ...rest] = String(file.path).split('/');
    // a path is only ever files/<stored name>: nothing in a manifest can name a place outside the folders
    if (folder !== FILES_DIR || !name || !STORED_NAME.test(name) || rest.length > 0)
      return `file path ${String(file.path).slice(0, 80)} is not files/<stored name>`;
    if (!SHA256.test(file.sha256) || !Number.isInteger(file.size) || file.size < 0) return `file ${file.path}: size or sha256 malformed`;
  }
  return undefined;
}

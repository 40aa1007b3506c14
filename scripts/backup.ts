/**
 * `npm run backup -- <dir>`: the platform's database (PostgreSQL's own dump of the core, bpm and dms
 * schemas) and the DMS files its rows name, consistent with each other, into the new or empty
 * folder <dir>, with `manifest.json` (written last) listing each part's size and SHA-256
 * (scripts/lib/backup-run.ts; docs/adr/0091-backup-and-restore.md).
 *
 * Reads the database as its owner (DATABASE_OWNER_URL, else DATABASE_URL: the owner reads every
 * row, row-level security aside) and DMS_STORAGE_DIR (or, under DMS_STORAGE=s3, the bucket of DMS_S3_*), or without DATABASE_URL the embedded PostgreSQL and files
 * of `npm start` (DATA_DIR, EMBEDDED_PG_PORT); PG_BIN_DIR picks the folder of pg_dump.
 * Exit 0 when the backup is complete, 1 when it failed (the folder is then not a backup: it has no
 * manifest), 2 on a usage error.
 */
import { keepWritesPrivate } from '@platform/kit/runtime/private-files.ts';
import { probeServer } from './lib/pg-client.ts';
import { runBackup } from './lib/backup-run.ts';
import { resolveTarget } from './lib/backup-target.ts';

// the backup holds every record and file: its folder 0700, the dump (pg_dump inherits the umask) and files 0600
keepWritesPrivate();
process.stdout.on('error', () => undefined);
const say = (line: string): void => void process.stdout.write(`backup: ${line}\n`);

const [dir, ...rest] = process.argv.slice(2);
if (!dir || rest.length > 0 || dir.startsWith('-')) {
  process.stderr.write('usage: npm run backup -- <dir>   (a new or empty folder)\n');
  process.exit(2);
}
try {
  const target = await resolveTarget(process.env, true, (url) => probeServer(url, 5000));
  try {
    const manifest = await runBackup({ dir, target, env: process.env, say });
    say(`done: ${dir} (snapshot ${manifest.snapshotId}, ${manifest.files.length} file(s))`);
  } finally {
    await target.release();
  }
} catch (error) {
  process.stderr.write(`backup: failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
process.exit();

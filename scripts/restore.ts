/**
 * `npm run restore -- <dir> [--force]`: a backup made by `npm run backup` back into the database
 * (as its owner, DATABASE_OWNER_URL, else DATABASE_URL, which then grants DATABASE_URL's role the
 * restored schemas again; or the embedded one of `npm start`) and the file folder (DMS_STORAGE_DIR, or
 * DATA_DIR/files; under DMS_STORAGE=s3 the bucket of DMS_S3_*), with the platform stopped (deploy/README.md "Backup and restore").
 *
 * Every part is checked against the manifest before anything is touched. A target that holds data
 * (tables in the core, bpm or dms schema, or stored files) is refused unless --force, which
 * replaces it: its schemas are dropped and the stored files the backup does not hold are removed.
 * A database other sessions use (the platform still running) is refused in any case.
 * Exit 0 when restored and verified, 1 when it failed, 2 on a usage error.
 */
import { keepWritesPrivate } from '@platform/kit/runtime/private-files.ts';
import { probeServer } from './lib/pg-client.ts';
import { runRestore } from './lib/backup-restore-run.ts';
import { resolveTarget } from './lib/backup-target.ts';

// the restored file folder and files are the owner's alone (0700 / 0600), as dms-svc makes them
keepWritesPrivate();
process.stdout.on('error', () => undefined);
const say = (line: string): void => void process.stdout.write(`restore: ${line}\n`);

const args = process.argv.slice(2);
const force = args.includes('--force');
const positional = args.filter((arg) => arg !== '--force');
if (positional.length !== 1 || positional[0]!.startsWith('-')) {
  process.stderr.write('usage: npm run restore -- <dir> [--force]\n');
  process.exit(2);
}
const dir = positional[0]!;
try {
  const target = await resolveTarget(process.env, false, (url) => probeServer(url, 5000));
  try {
    await runRestore({ dir, target, env: process.env, force, say });
    say(`done: ${dir} restored; run the migrations (npm run migrate -- up) before starting the platform`);
  } finally {
    await target.release();
  }
} catch (error) {
  process.stderr.write(`restore: failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
process.exit();

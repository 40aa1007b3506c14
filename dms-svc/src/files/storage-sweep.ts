import { lstat, opendir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { FileStorage } from './storage.ts';

/**
 * How old a leftover must be before the sweep removes it: an upload temporary not written to for
 * this long, or a stored file without a row last written this long ago. It must comfortably exceed
 * the longest an upload can sit between its last byte and its commit (the tenant's quota lock, the
 * row's transaction, the rename: milliseconds, seconds under load, minutes through a database
 * failover), since a stored file is renamed before its row commits; and a live upload is never
 * silent for long (the gateway cuts an upload that sends nothing for UPLOAD_IDLE_TIMEOUT_MS). An
 * hour leaves a wide margin, and clocks of replicas sharing a volume may drift a little.
 */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

/** Stored names looked up in one query. */
const BATCH = 500;

export interface SweepCounts {
  temporariesRemoved: number;
  orphansRemoved: number;
}

/**
 * Removes what crashes leave in DMS_STORAGE_DIR (docs/adr/0036-retention-runs-as-a-job-in-dms-svc.md): upload temporaries
 * (`.upload-*.part`) not written to within `graceMs`, and files under a stored name that no dms-file
 * row names (deleted or not: a soft-deleted file keeps its bytes until it is purged) last written
 * more than `graceMs` ago. Anything else in the directory is left alone.
 *
 * Safe with several replicas sharing the volume and the database: it only removes, and a name
 * another sweep (or retention's purge) removed first is skipped uncounted. A stored file's age is
 * judged against a cutoff taken before its row is looked up: an upload whose row is not yet
 * committed wrote its last byte less than `graceMs` before, however long the sweep itself takes.
 * Each removal is logged at info (such bytes have no row, so no tenant to audit them for).
 */
export async function sweepStorage(em: EntityManager, storage: FileStorage, log: Logger, graceMs = SWEEP_GRACE_MS): Promise<SweepCounts> {
  const counts: SweepCounts = { temporariesRemoved: 0, orphansRemoved: 0 };
  let stored: string[] = [];
  const sweepStored = async () => {
    counts.orphansRemoved += await removeOrphans(em, storage, log, stored, graceMs);
    stored = [];
  };
  // opendir streams the directory: memory stays flat however many files it holds
  for await (const entry of await opendir(storage.dir, { bufferSize: 256 })) {
    if (!entry.isFile()) continue;
    const kind = storage.kindOf(entry.name);
    if (kind === 'temporary' && (await removeIfOlder(storage, log, entry.name, 'temporary', Date.now() - graceMs))) counts.temporariesRemoved++;
    if (kind !== 'stored') continue;
    stored.push(entry.name);
    if (stored.length >= BATCH) await sweepStored();
  }
  if (stored.length > 0) await sweepStored();
  if (counts.temporariesRemoved + counts.orphansRemoved > 0) log.info({ ...counts }, 'storage sweep');
  return counts;
}

/** Removes those of `names` that no dms-file row names and that are older than the grace period; how many it removed. */
async function removeOrphans(em: EntityManager, storage: FileStorage, log: Logger, names: string[], graceMs: number): Promise<number> {
  // before the lookup: see sweepStorage
  const cutoff = Date.now() - graceMs;
  const rows = await em.execute<{ stored_file_name: string }[]>(
    `select stored_file_name from dms.dms_file where stored_file_name in (${names.map(() => '?').join(', ')})`,
    names,
  );
  const named = new Set(rows.map((row) => row.stored_file_name));
  let removed = 0;
  for (const name of names) {
    if (!named.has(name) && (await removeIfOlder(storage, log, name, 'orphan', cutoff))) removed++;
  }
  return removed;
}

/** Unlinks `name` when it was last written before `cutoff` (ms); false when it is younger or already gone. */
async function removeIfOlder(storage: FileStorage, log: Logger, name: string, kind: 'temporary' | 'orphan', cutoff: number): Promise<boolean> {
  const path = join(storage.dir, name);
  try {
    const info = await lstat(path);
    if (!info.isFile() || info.mtimeMs >= cutoff) return false;
    await unlink(path);
    log.info({ file: name, kind, bytes: info.size, modifiedAt: info.mtime.toISOString() }, 'storage sweep removed a file');
    return true;
  } catch (error) {
    // another replica's sweep, retention's purge or the upload itself removed it first
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

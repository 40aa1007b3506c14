import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { FileStorage, StoredEntry } from './storage.ts';

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
 * Removes what crashes leave in the file storage (docs/adr/0036-retention-runs-as-a-job-in-dms-svc.md,
 * docs/adr/0144-files-on-s3-compatible-storage.md): upload temporaries (`.upload-*.part` in
 * DMS_STORAGE_DIR, multipart uploads never completed in the bucket) not written to within `graceMs`, and files under a stored name that no dms-file
 * row names (deleted or not: a soft-deleted file keeps its bytes until it is purged) last written
 * more than `graceMs` ago. Anything else in the directory is left alone.
 *
 * Safe with several replicas sharing the volume (or bucket) and the database: it only removes, and a name
 * another sweep (or retention's purge) removed first is skipped uncounted. A stored file's age is
 * judged against a cutoff taken before its row is looked up: an upload whose row is not yet
 * committed wrote its last byte less than `graceMs` before, however long the sweep itself takes.
 * Each removal is logged at info (such bytes have no row, so no tenant to audit them for).
 */
export async function sweepStorage(em: EntityManager, storage: FileStorage, log: Logger, graceMs = SWEEP_GRACE_MS): Promise<SweepCounts> {
  const counts: SweepCounts = { temporariesRemoved: 0, orphansRemoved: 0 };
  let stored: StoredEntry[] = [];
  const sweepStored = async () => {
    counts.orphansRemoved += await removeOrphans(em, storage, log, stored, graceMs);
    stored = [];
  };
  // streamed (the folder by opendir, the bucket a page at a time): memory stays flat however many files it holds
  for await (const entry of storage.entries()) {
    if (entry.kind === 'temporary' && (await removeIfOlder(storage, log, entry, Date.now() - graceMs))) counts.temporariesRemoved++;
    if (entry.kind !== 'stored') continue;
    stored.push(entry);
    if (stored.length >= BATCH) await sweepStored();
  }
  if (stored.length > 0) await sweepStored();
  if (counts.temporariesRemoved + counts.orphansRemoved > 0) log.info({ ...counts }, 'storage sweep');
  return counts;
}

/** Removes those of `entries` that no dms-file row names and that are older than the grace period; how many it removed. */
async function removeOrphans(em: EntityManager, storage: FileStorage, log: Logger, entries: StoredEntry[], graceMs: number): Promise<number> {
  // before the lookup: see sweepStorage
  const cutoff = Date.now() - graceMs;
  const rows = await em.execute<{ stored_file_name: string }[]>(
    `select stored_file_name from dms.dms_file where stored_file_name in (${entries.map(() => '?').join(', ')})`,
    entries.map((entry) => entry.name),
  );
  const named = new Set(rows.map((row) => row.stored_file_name));
  let removed = 0;
  for (const entry of entries) {
    if (!named.has(entry.name) && (await removeIfOlder(storage, log, entry, cutoff))) removed++;
  }
  return removed;
}

/** Removes `entry` when it was last written before `cutoff` (ms), and logs it; false when it is younger or already gone. */
async function removeIfOlder(storage: FileStorage, log: Logger, entry: StoredEntry, cutoff: number): Promise<boolean> {
  const removed = await storage.removeIfOlder(entry, cutoff);
  if (!removed) return false;
  const kind = entry.kind === 'stored' ? 'orphan' : 'temporary';
  log.info({ file: entry.name, kind, bytes: removed.bytes, modifiedAt: removed.modifiedAt.toISOString() }, 'storage sweep removed a file');
  return true;
}

import { mkdtemp, rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { FileSource } from './file-source.ts';
import { ExtractionFailure } from './extraction-failure.ts';
import { extractText } from './extract-text.ts';
import { detectLanguage } from './text-language.ts';
import type { TextSettings } from './text-settings.ts';
import { claimText, failText, releaseText, renewLease, saveText, type ClaimedFile } from './text-store.ts';

/** A run's attempts at one file before it gives up: a file whose worker died each time (killed by the machine, say) stops there. */
export const MAX_ATTEMPTS = 3;

/** What is done with a file once its text is kept (the matching rules: src/matching/). */
export type AfterText = (em: EntityManager, file: ClaimedFile, log: Logger) => Promise<void>;

/**
 * One file's extraction run (docs/adr/0159-documents-found-by-their-words.md), in dms-worker: takes
 * the file's text row, copies its bytes to a private folder, reads its words under the limits, and
 * keeps them (DONE) or the reason they could not be read (FAILED, SKIPPED), then runs `after` (the
 * matching rules). While it reads, it renews its lease; a worker killed mid-file leaves the lease to
 * lapse, and the queue's retry of its job waits for that and takes the file again (the sweep does
 * too); a file whose run is alive is left to it. An error that is not the file's own
 * (the database, the bucket) gives the file back, PENDING, and is thrown for the queue to retry.
 */
export async function readFileText(
  em: EntityManager,
  storage: FileSource,
  settings: TextSettings,
  fileId: number,
  log: Logger,
  after?: AfterText,
): Promise<string> {
  let claim = await claimText(em, fileId, settings.leaseSeconds);
  // held: a run of a worker that died (its lease lapses unrenewed: taken then), or one alive (renewed: left to it)
  if (claim.kind === 'held') {
    await delay(Math.min(claim.leaseMs, settings.leaseSeconds * 1000) + 1000);
    claim = await claimText(em, fileId, settings.leaseSeconds);
    if (claim.kind === 'held') return 'read by another run';
  }
  if (claim.kind === 'none') return 'nothing to do';
  const file = claim.file;
  if (file.attempts > MAX_ATTEMPTS) {
    await failText(em, fileId, 'FAILED', `gave up after ${MAX_ATTEMPTS} attempts: the worker stopped during each`);
    return 'gave up';
  }
  const workDir = await mkdtemp(join(tmpdir(), 'dms-text-'));
  const renewal = setInterval(
    () => void renewLease(em, fileId, settings.leaseSeconds).catch((error: unknown) => log.warn({ err: error, fileId }, 'text lease not renewed')),
    (settings.leaseSeconds * 1000) / 3,
  );
  try {
    const path = join(workDir, 'file');
    await storage.copyTo(file.storedFileName, path);
    let outcome: string;
    try {
      const read = await extractText(path, file.mimeType, workDir, settings.limits);
      const language = detectLanguage(read.text, file.tenantLanguage ?? settings.language);
      outcome = (await saveText(em, file, read, language)) ? 'DONE' : 'deleted meanwhile';
    } catch (error) {
      if (!(error instanceof ExtractionFailure)) throw error;
      await failText(em, fileId, error.status, error.message);
      log.info({ fileId, reason: error.message }, `text ${error.status.toLowerCase()}`);
      return error.status;
    }
    // the text is kept whatever follows: a failure here is logged, and the rules can be applied again (POST /api/dms-matching-rule/apply)
    if (outcome === 'DONE' && after) await after(em, file, log).catch((error: unknown) => log.warn({ err: error, fileId }, 'after the text: failed'));
    return outcome;
  } catch (error) {
    await releaseText(em, fileId).catch(() => undefined);
    throw error;
  } finally {
    clearInterval(renewal);
    await rm(workDir, { recursive: true, force: true });
  }
}

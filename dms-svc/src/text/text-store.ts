import type { EntityManager } from '@mikro-orm/postgresql';
import type { ExtractedText } from './extract-text.ts';
import { TEXT_LANGUAGES, type TextLanguage } from './text-language.ts';

/**
 * The writes of a file's text row (dms.dms_file_text, dms-svc/src/db.ts DmsFileTextEntity), each one
 * statement that checks the row's state as it changes it, so that two runs of one file, or a run and
 * a delete, never both win.
 */

const TABLE = '"dms"."dms_file_text"';

/** A file the run took: what it needs to read it. */
export interface ClaimedFile {
  fileId: number;
  crProcessId: number;
  storedFileName: string;
  mimeType: string;
  attempts: number;
  /** The tenant's language (its dms-account-config's textLanguage), when it set one. */
  tenantLanguage: TextLanguage | undefined;
}

/** What a run finds: the file taken, one another run holds for `leaseMs` more (unless renewed), or nothing to do (read, failed, deleted). */
export type Claim = { kind: 'claimed'; file: ClaimedFile } | { kind: 'held'; leaseMs: number } | { kind: 'none' };

/** Writes a new file's PENDING row (or SKIPPED, with extraction off), in the upload's transaction. */
export async function addTextRow(em: EntityManager, fileId: number, crProcessId: number, extraction: boolean): Promise<void> {
  await em.execute(
    `insert into ${TABLE} (file_id, cr_process_id, status, reason) values (?, ?, ?, ?)`,
    extraction ? [fileId, crProcessId, 'PENDING', null] : [fileId, crProcessId, 'SKIPPED', 'text extraction is off (DMS_TEXT_EXTRACTION)'],
  );
}

/**
 * Takes file `fileId` for a run: a PENDING row, or a RUNNING one whose lease lapsed (its worker
 * died), of a live file; RUNNING now, leased for `leaseSeconds`, its attempts counted.
 */
export async function claimText(em: EntityManager, fileId: number, leaseSeconds: number): Promise<Claim> {
  const [taken] = await em.execute<
    { attempts: number; cr_process_id: string; stored_file_name: string; mime_type: string | null; text_language: string | null }[]
  >(
    `update ${TABLE} t set status = 'RUNNING', attempts = t.attempts + 1, lease_until = now() + make_interval(secs => ?), reason = null
       from "dms"."dms_file" f
      where t.file_id = ? and f.id = t.file_id and not f.deleted
        and (t.status = 'PENDING' or (t.status = 'RUNNING' and t.lease_until < now()))
      returning t.attempts, t.cr_process_id, f.stored_file_name, f.mime_type,
                (select c.text_language from "dms"."dms_account_config" c where c.cr_process_id = t.cr_process_id) as text_language`,
    [leaseSeconds, fileId],
  );
  if (taken) {
    return {
      kind: 'claimed',
      file: {
        fileId,
        crProcessId: Number(taken.cr_process_id),
        storedFileName: taken.stored_file_name,
        mimeType: taken.mime_type ?? 'application/octet-stream',
        attempts: taken.attempts,
        tenantLanguage: TEXT_LANGUAGES.find((language) => language === taken.text_language),
      },
    };
  }
  const [held] = await em.execute<{ left_ms: number | null }[]>(
    `select case when status = 'RUNNING' and lease_until >= now() then extract(epoch from lease_until - now()) * 1000 end as left_ms from ${TABLE} where file_id = ?`,
    [fileId],
  );
  return held?.left_ms != null ? { kind: 'held', leaseMs: Number(held.left_ms) } : { kind: 'none' };
}

/** Keeps a run's hold on its file for another `leaseSeconds`; false when the run no longer holds it. */
export async function renewLease(em: EntityManager, fileId: number, leaseSeconds: number): Promise<boolean> {
  const rows = await em.execute<{ file_id: string }[]>(
    `update ${TABLE} set lease_until = now() + make_interval(secs => ?) where file_id = ? and status = 'RUNNING' returning file_id`,
    [leaseSeconds, fileId],
  );
  return rows.length > 0;
}

/** PostgreSQL's refusal of a text search vector over its 1 MB limit (program_limit_exceeded). */
const VECTOR_TOO_LONG = '54000';

/**
 * Keeps a file's text: DONE, its vector in its language's folded configuration, its lexemes added
 * to the tenant's words. A text whose vector would pass PostgreSQL's 1 MB limit is indexed by its
 * first half, quarter, ... (the whole text is kept and shown), and says so. False when the run no
 * longer held the file (the file was deleted meanwhile).
 */
export async function saveText(em: EntityManager, file: ClaimedFile, read: ExtractedText, language: TextLanguage): Promise<boolean> {
  for (let indexed = read.text.length; ; indexed = Math.floor(indexed / 2)) {
    const cut = indexed < read.text.length ? `only the first ${indexed.toLocaleString('en')} characters are searchable` : read.cut;
    try {
      return await em.transactional(async (tx) => {
        const rows = await tx.execute<{ file_id: string }[]>(
          `update ${TABLE} set status = 'DONE', reason = ?, language = ?, method = ?, pages = ?, content = ?, truncated = ?,
                  search = to_tsvector(?::regconfig, ?), lease_until = null, finished_at = now()
            where file_id = ? and status = 'RUNNING' returning file_id`,
          [cut ?? null, language, read.method, read.pages, read.text, cut !== undefined, `dms.${language}_folded`, read.text.slice(0, indexed), file.fileId],
        );
        if (rows.length === 0) return false;
        await tx.execute(
          `insert into "dms"."dms_text_word" (cr_process_id, word)
           select ?, w from unnest(tsvector_to_array((select search from ${TABLE} where file_id = ?))) as w where length(w) <= 100
           on conflict do nothing`,
          [file.crProcessId, file.fileId],
        );
        return true;
      });
    } catch (error) {
      if ((error as { code?: string }).code !== VECTOR_TOO_LONG || indexed < 2) throw error;
    }
  }
}

/** Ends a run that could not read its file: FAILED or SKIPPED with the reason, no text. */
export async function failText(em: EntityManager, fileId: number, status: 'FAILED' | 'SKIPPED', reason: string): Promise<void> {
  await em.execute(
    `update ${TABLE} set status = ?, reason = ?, content = null, search = null, truncated = false, lease_until = null, finished_at = now()
      where file_id = ? and status = 'RUNNING'`,
    [status, reason.slice(0, 500), fileId],
  );
}

/** Gives a run's file back (an error that trying again may not meet: the database, the bucket): PENDING, for the retry. */
export async function releaseText(em: EntityManager, fileId: number): Promise<void> {
  await em.execute(`update ${TABLE} set status = 'PENDING', lease_until = null where file_id = ? and status = 'RUNNING'`, [fileId]);
}

/**
 * Puts files back to be read again (an operator's request, or rules changed): PENDING, attempts and
 * reason cleared, unless a run holds them. Returns the ids put back.
 */
export async function requeueText(em: EntityManager, fileIds: readonly number[]): Promise<number[]> {
  const rows = await em.execute<{ file_id: string }[]>(
    `update ${TABLE} set status = 'PENDING', attempts = 0, reason = null, queued_at = now(), finished_at = null
      where file_id = any(?::bigint[]) and status <> 'RUNNING' returning file_id`,
    [`{${fileIds.join(',')}}`],
  );
  return rows.map((row) => Number(row.file_id));
}

/**
 * The files whose run is owed and was not sent, or whose worker died (the sweep's): PENDING since
 * `olderThanSeconds`, or RUNNING with a lapsed lease; marked queued now, so the next sweep leaves
 * them alone until they are owed again. At most `limit`.
 */
export async function owedTexts(em: EntityManager, olderThanSeconds: number, limit: number): Promise<number[]> {
  const rows = await em.execute<{ file_id: string }[]>(
    `update ${TABLE} set queued_at = now()
      where file_id in (select file_id from ${TABLE}
                         where status in ('PENDING', 'RUNNING') and queued_at < now() - make_interval(secs => ?)
                           and (status = 'PENDING' or lease_until < now())
                         order by queued_at limit ? for update skip locked)
      returning file_id`,
    [olderThanSeconds, limit],
  );
  return rows.map((row) => Number(row.file_id));
}

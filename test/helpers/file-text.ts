/**
 * A file's extracted text: read through the API once dms-worker has read it (`finishedText`), or
 * written beneath the API as the extraction writes it (the table dms.dms_file_text,
 * docs/interface.md#matching-rules): status DONE, the language, the content and its words,
 * `to_tsvector` in the language's folded configuration. The row is made when the upload left none.
 */
import { sql } from './db.ts';
import { api } from './platform.ts';
import { until } from './until.ts';

/** GET /api/dms-file/{id}/text once its run has ended (neither PENDING nor RUNNING), as `token` reads it. */
export async function finishedText(token: string, fileId: number, baseUrl?: string): Promise<any> {
  let last: any;
  await until(
    `file ${fileId}'s text to be read`,
    180_000,
    async () => {
      last = (await api('GET', `/api/dms-file/${fileId}/text`, { token, baseUrl })).body;
      return last.status !== 'PENDING' && last.status !== 'RUNNING';
    },
    { intervalMs: 500 },
  );
  return last;
}

export type TextLanguage = 'english' | 'turkish';

/** Marks file `fileId` (of tenant `crProcessId`) extracted with `content` in `language`. */
export async function setFileText(fileId: number, crProcessId: number, content: string, language: TextLanguage = 'english'): Promise<void> {
  await sql(
    `insert into dms.dms_file_text (file_id, cr_process_id, status, language, content, search, finished_at)
     values ($1, $2, 'DONE', $3, $4, to_tsvector($5::regconfig, $4), now())
     on conflict (file_id) do update
        set status = 'DONE', language = excluded.language, content = excluded.content, search = excluded.search, finished_at = excluded.finished_at`,
    [fileId, crProcessId, language, content, `dms.${language}_folded`],
  );
}

/** Marks file `fileId` as waiting for its extraction (PENDING, no text). */
export async function setFileTextPending(fileId: number, crProcessId: number): Promise<void> {
  await sql(
    `insert into dms.dms_file_text (file_id, cr_process_id, status) values ($1, $2, 'PENDING')
     on conflict (file_id) do update set status = 'PENDING', language = null, content = null, search = null, finished_at = null`,
    [fileId, crProcessId],
  );
}

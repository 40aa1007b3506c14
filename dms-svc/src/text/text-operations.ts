import type { EntityManager } from '@mikro-orm/postgresql';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import { findVisible } from '@platform/service-kit/crud/key-read.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import type { JobSender } from '@platform/service-kit/jobs/job-sender.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { DmsFileText, ExtractDmsFileTextRequest, GetDmsFileTextRequest } from '@platform/kit/gen/platform/dms/v1/dms_file.ts';
import { isoDateTime } from '@platform/kit/resource/iso-date-time.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { TEXT_QUEUE } from './text-jobs.ts';
import { requeueText } from './text-store.ts';

interface TextRow {
  file_id: string;
  status: string;
  reason: string | null;
  attempts: number;
  language: string | null;
  method: string | null;
  pages: number | null;
  truncated: boolean;
  characters: number | null;
  finished_at: Date | null;
  content: string | null;
}

/** A file's text row as the API shows it. */
async function textOf(em: EntityManager, fileId: number): Promise<DmsFileText> {
  const [row] = await em.execute<TextRow[]>(
    `select file_id, status, reason, attempts, language, method, pages, truncated, length(content) as characters, finished_at, content
       from "dms"."dms_file_text" where file_id = ?`,
    [fileId],
  );
  // a file stored before its text row could be written has none: its words were never asked for
  if (!row) return { fileId, status: 'SKIPPED', reason: 'the file has no text row', attempts: 0, truncated: false, characters: 0 };
  return {
    fileId,
    status: row.status,
    reason: row.reason ?? undefined,
    attempts: row.attempts,
    language: row.language ?? undefined,
    method: row.method ?? undefined,
    pages: row.pages ?? undefined,
    truncated: row.truncated,
    characters: Number(row.characters ?? 0),
    finishedAt: row.finished_at ? isoDateTime(new Date(row.finished_at)) : undefined,
    text: row.content ?? undefined,
  };
}

/**
 * GetDmsFileText (dms-file:read) and ExtractDmsFileText (dms-file:write), on a file the caller may
 * see (another tenant's, a deleted one: 404). Reading again puts the file back PENDING and sends its
 * run; a file being read now is 409 SVC-SYS-4004; with extraction off it is 409 too.
 */
export function textOperations(rt: ResourceRuntime, sender: JobSender, extraction: boolean) {
  return {
    getDmsFileText: requiring(roleOf(dmsFile, 'read'), async (request: GetDmsFileTextRequest, ctx: CallContext) => {
      const row = await findVisible(rt, ctx.em, ctx, request.id);
      return textOf(ctx.em, Number(row.id));
    }),
    extractDmsFileText: requiring(roleOf(dmsFile, 'write'), async (request: ExtractDmsFileTextRequest, ctx: CallContext) => {
      const row = await findVisible(rt, ctx.em, ctx, request.id);
      const fileId = Number(row.id);
      if (!extraction) throw new DomainError('SVC-SYS-4004', 'text.extractionOff');
      await ctx.em.execute(`insert into "dms"."dms_file_text" (file_id, cr_process_id) values (?, ?) on conflict (file_id) do nothing`, [
        fileId,
        Number(row.crProcessId),
      ]);
      const [requeued] = await requeueText(ctx.em, [fileId]);
      if (requeued === undefined) throw new DomainError('SVC-SYS-4004', 'text.running');
      await sender.send(TEXT_QUEUE, { fileId });
      return textOf(ctx.em, fileId);
    }),
  };
}

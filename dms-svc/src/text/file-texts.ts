import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { JobSender } from '@platform/service-kit/jobs/job-sender.ts';
import { TEXT_QUEUE } from './text-jobs.ts';
import { addTextRow } from './text-store.ts';

/**
 * What an upload does for its file's words (docs/adr/0159-documents-found-by-their-words.md): its
 * text row in the upload's transaction (PENDING, or SKIPPED with extraction off), and once that has
 * committed, the run sent to dms-worker, not waited for: the upload's answer does not wait on the
 * queue, and a send that fails is sent again by the sweep.
 */
export interface FileTexts {
  add(em: EntityManager, fileId: number, crProcessId: number): Promise<void>;
  send(fileId: number): void;
}

export function fileTexts(extraction: boolean, sender: JobSender, log: Logger): FileTexts {
  return {
    add: (em, fileId, crProcessId) => addTextRow(em, fileId, crProcessId, extraction),
    send(fileId) {
      if (!extraction) return;
      sender.send(TEXT_QUEUE, { fileId }).catch((error: unknown) => log.warn({ err: error, fileId }, 'text run not sent: the sweep sends it'));
    },
  };
}

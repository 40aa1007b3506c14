import type { MikroORM } from '@mikro-orm/postgresql';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';
import { defineJob, type JobDefinition } from '@platform/service-kit/jobs/job.ts';
import type { JobSender } from '@platform/service-kit/jobs/job-sender.ts';
import type { FileSource } from './file-source.ts';
import { readFileText, type AfterText } from './read-file-text.ts';
import type { TextSettings } from './text-settings.ts';
import { owedTexts } from './text-store.ts';

/** The queue of extraction runs, one job per file: `{ fileId }`. */
export const TEXT_QUEUE = 'dms.text-extraction';

/** The most files one sweep sends. */
const SWEEP_BATCH = 1000;

/**
 * A file's extraction run, sent on demand by the upload (and by the sweep, and by a request to read
 * a file again): a run per file, any worker, each worker one file at a time; a run that throws is
 * tried again (five times, 5 s apart, doubling), and one whose worker stops sending heartbeats for
 * 10 s is failed and retried. Its time is the file's limit and a minute.
 */
export function textExtractionJob(orm: MikroORM, storage: FileSource, settings: TextSettings, after?: AfterText): JobDefinition {
  return defineJob({
    name: TEXT_QUEUE,
    schedule: { onDemand: true },
    retry: { limit: 5, delaySeconds: 5, backoff: true },
    heartbeatSeconds: 10,
    timeoutSeconds: Math.ceil(settings.limits.timeoutMs / 1000) + 60,
    run: ({ data, log }) => {
      const fileId = Number((data as { fileId?: unknown } | null)?.fileId);
      if (!Number.isSafeInteger(fileId) || fileId < 1) throw new Error(`${TEXT_QUEUE} sent without a fileId`);
      return readFileText(scopedFork(orm, { platform: 'job' }), storage, settings, fileId, log.child({ fileId }), after);
    },
  });
}

/**
 * The sweep of runs owed (once per cluster, every DMS_TEXT_SWEEP_INTERVAL_SECONDS): files PENDING
 * for a sweep's interval whose send was lost (dms-svc stopped between its commit and its send), and
 * files whose run's worker died (their lease lapsed), each sent again.
 */
export function textSweepJob(orm: MikroORM, sender: JobSender, settings: TextSettings): JobDefinition {
  return defineJob({
    name: 'dms.text-sweep',
    schedule: { everySeconds: settings.sweepIntervalSeconds },
    run: async ({ log }) => {
      const owed = await owedTexts(scopedFork(orm, { platform: 'job' }), settings.sweepIntervalSeconds, SWEEP_BATCH);
      for (const fileId of owed) await sender.send(TEXT_QUEUE, { fileId });
      if (owed.length > 0) log.info({ files: owed.length }, 'text runs sent again');
      return owed.length;
    },
  });
}

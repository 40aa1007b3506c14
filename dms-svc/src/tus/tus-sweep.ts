import type { Logger } from '@platform/libs/log/logger.ts';
import { startPeriodicJob, type PeriodicJob } from '@platform/libs/runtime/periodic-job.ts';
import type { TusUploads } from './tus-uploads.ts';

/**
 * The sweep of expired resumable uploads (docs/decisions.md "Resumable uploads (tus)"): every
 * `intervalSeconds`, the first one interval after start, as the retention job is timed; one at a
 * time per process, the next timed from the end of the last; a failed sweep is logged and the next
 * comes on time. Replicas sharing the volume may sweep at once: each only removes. `stop()` cancels
 * the timer and waits for a sweep in progress.
 */
export function startTusSweep(tus: TusUploads, log: Logger, intervalSeconds: number): PeriodicJob {
  return startPeriodicJob({ name: 'resumable upload sweep', everyMs: intervalSeconds * 1000, log, run: () => tus.sweepExpired(log) });
}

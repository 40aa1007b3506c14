import type { Logger } from '@platform/kit/log/logger.ts';

/** When a job is sent: every `seconds` (slots of that length from the epoch), or on a cron expression (minutes, UTC). */
export type JobSchedule = { everySeconds: number } | { cron: string };

/** What a failed run does next: tried again up to `limit` more times, `delaySeconds` apart (doubling with `backoff`). */
export interface RetryPolicy {
  limit: number;
  delaySeconds: number;
  backoff?: boolean;
}

/** What a run is handed: its queue's logger (the job's name bound), the job's id and which attempt this is (0 the first). */
export interface JobRun {
  log: Logger;
  id: string;
  attempt: number;
}

/**
 * One piece of background work on the queue (libs/service-kit/src/jobs/job-queue.ts): its queue
 * name, when it is sent, what a failure does, and the work. A job of this kind runs once per
 * schedule across the cluster, one run at a time, whichever worker takes it.
 */
export interface JobDefinition {
  /** The queue's name, `<service>.<job>` in kebab-case: `dms.retention`. */
  name: string;
  schedule: JobSchedule;
  /** Default: two more tries, 30 s apart, doubling. */
  retry?: RetryPolicy;
  /** How long a run may take before it counts as failed (and is retried); default 15 minutes. */
  timeoutSeconds?: number;
  run(context: JobRun): Promise<unknown>;
}

/**
 * Declares a job; the identity, typed, so a declaration reads as one.
 *
 * @example
 * export const idempotencySweep = (orm: MikroORM) =>
 *   defineJob({ name: 'dms.idempotency-sweep', schedule: { everySeconds: 3600 }, run: () => sweepExpiredKeys(scopedFork(orm, { platform: 'job' })) });
 */
export function defineJob(definition: JobDefinition): JobDefinition {
  return definition;
}

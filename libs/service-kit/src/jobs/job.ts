import type { Logger } from '@platform/kit/log/logger.ts';

/**
 * When a job is sent: every `seconds` (slots of that length from the epoch), on a cron expression
 * (minutes, UTC), or on demand, with its data (an import run: job-sender.ts), as often as asked.
 */
export type JobSchedule = { everySeconds: number } | { cron: string } | { onDemand: true };

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
  /** What an on-demand job was sent with (null for a scheduled one). */
  data: unknown;
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
  /**
   * A run whose worker sends no heartbeat for this long (at least 10 s) counts as failed and is
   * retried: a worker that died is found in seconds rather than at the timeout (an import run).
   */
  heartbeatSeconds?: number;
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

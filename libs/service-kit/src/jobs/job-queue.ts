import { PgBoss, type QueueOptions } from 'pg-boss';
import type { Logger } from '@platform/kit/log/logger.ts';
import { POOL_VARIABLES } from '../config/database-pools.ts';
import { migrateJobSchema } from './job-schema.ts';
import type { JobMetrics } from '../metrics/job.metrics.ts';
import type { JobDefinition, RetryPolicy } from './job.ts';

/**
 * The schema pg-boss keeps its queues in, one for the database that every service's worker shares
 * (queue names carry the service: `dms.retention`); pg-boss creates and migrates it, as the owner
 * (docs/adr/0143-background-work-on-a-postgresql-queue.md, jobs/job-schema.ts).
 */
export const JOB_SCHEMA = 'pgboss';

const DEFAULT_RETRY: RetryPolicy = { limit: 2, delaySeconds: 30, backoff: true };
const DEFAULT_TIMEOUT_SECONDS = 15 * 60;
/** A finished job is kept a day (or two slots, when longer): its row is what keeps its slot's other sends from running again. */
const KEPT_SECONDS = 24 * 3600;

export interface JobQueueOptions {
  /** The PostgreSQL of the service (DATABASE_URL): the serving role runs the queue. */
  url: string;
  /**
   * Who brings the queue's schema up to date first (jobs/job-schema.ts): the owner's connection
   * (DATABASE_OWNER_URL) and the serving role it grants; by default `url` itself (one role). `false`:
   * nothing is migrated here (production, where `npm run migrate -- up` does it), and a schema that is
   * missing, out of date or not granted refuses the start.
   */
  owner?: { url: string; servingRole?: string } | false;
  jobs: readonly JobDefinition[];
  log: Logger;
  /** Default JOB_SCHEMA; tests take one of their own. */
  schema?: string;
  /** How often an idle worker looks for a job of each queue; default 2 s. */
  pollingIntervalSeconds?: number;
  /** Shown in pg_stat_activity: `dms-worker`. */
  applicationName?: string;
  /** Where each run is counted and timed (the worker's /metrics). */
  metrics?: JobMetrics;
  /** The queue's pool size (JOBS_DATABASE_POOL_MAX, config/database-pools.ts); default a worker's. */
  poolMax?: number;
}

export interface JobQueue {
  /** Sends job `name` now, outside its schedule (a prompt run: an operator's, a test's); its id, or null when one is already waiting. */
  sendNow(name: string): Promise<string | null>;
  /** Sends on-demand job `name` with `data`; its id. */
  send(name: string, data: object): Promise<string | null>;
  /** Stops sending and taking jobs, waits for the runs under way (up to `timeoutMs`, default 20 s), and closes the pool. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Starts the background work of a service on a queue in PostgreSQL (pg-boss): each job gets its
 * queue (policy `stately`: at most one run under way and one waiting, so a slow run is never
 * overlapped and never piles up), a worker that takes its jobs, and its schedule:
 *
 * - `{ everySeconds: n }`: every process sends the job twice a slot, with pg-boss's throttle
 *   (`singletonSeconds: n`); the database keeps one job per slot of n seconds from the epoch
 *   (a unique index on the slot), so the work runs once per slot however many workers send;
 * - `{ cron }`: a pg-boss schedule, which its cron pass sends once per matching minute, cluster-wide.
 *
 * A run that throws is logged and tried again per the job's retry policy; one that outlives its
 * timeout counts as failed. Handlers should be safe to run twice (a worker killed mid-run leaves its
 * job to be retried once it expires).
 *
 * @example
 * const queue = await startJobQueue({ url: databaseUrlOf(), jobs: [retentionJob(orm, storage, 3600)], log });
 * await queue.stop();
 */
export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const { jobs, log } = options;
  const crons = jobs.some((job) => 'cron' in job.schedule);
  const heartbeats = jobs.flatMap((job) => (job.heartbeatSeconds === undefined ? [] : [job.heartbeatSeconds]));
  const heartbeat = heartbeats.length > 0 ? Math.min(...heartbeats) : undefined;
  const boss = new PgBoss({
    connectionString: options.url,
    schema: options.schema ?? JOB_SCHEMA,
    application_name: options.applicationName,
    migrate: false,
    // the queue's short statements (its fetches, sends and maintenance wait their turn); the jobs'
    // own ORM has a pool of its own (worker-main.ts)
    max: options.poolMax ?? POOL_VARIABLES.jobs.fallback.worker,
    schedule: crons,
    // a job with a heartbeat (an import) whose worker died is failed, and retried, by the
    // supervisor's pass: every heartbeat's length rather than the default minute
    ...(heartbeat !== undefined && { superviseIntervalSeconds: heartbeat, monitorIntervalSeconds: heartbeat }),
    // pg-boss's own spans and metrics stay off: the platform's tracing names its own
    openTelemetry: { enabled: false },
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  // pg-boss's own findings: slow statements, a queue backing up, vacuum falling behind
  boss.on('warning', (warning) => log.warn({ warning }, 'job queue warning'));
  const schema = options.schema ?? JOB_SCHEMA;
  const owner = options.owner ?? { url: options.url };
  if (owner) {
    await migrateJobSchema({
      ownerUrl: owner.url,
      schema,
      servingRole: owner.servingRole,
      lock: { applicationName: options.applicationName, onWait: (holders) => log.info({ heldBy: holders }, 'waiting for the job schema') },
    });
  }
  // the queue's own pg-boss migrates nothing: its schema was brought up to date by the owner
  await boss.start().catch((error: unknown) => {
    throw new Error(
      `the job queue's schema ${schema} is missing, out of date or not granted to the role of DATABASE_URL ` +
        `(${error instanceof Error ? error.message : String(error)}): run \`npm run migrate -- up\` as the owner (DATABASE_OWNER_URL)`,
      { cause: error },
    );
  });
  const timers: NodeJS.Timeout[] = [];
  for (const job of jobs) {
    const queue = queueOptionsOf(job);
    // an on-demand job's runs do not wait for one another (each import its own run)
    await boss.createQueue(job.name, {
      policy: 'onDemand' in job.schedule ? 'standard' : 'stately',
      ...queue,
      ...(job.heartbeatSeconds !== undefined && { heartbeatSeconds: job.heartbeatSeconds }),
    });
    await boss.updateQueue(job.name, queue);
    const jobLog = log.child({ job: job.name });
    await boss.work(job.name, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, includeMetadata: true }, async ([taken]) => {
      if (!taken) return;
      const started = performance.now();
      try {
        await job.run({ log: jobLog, id: taken.id, attempt: taken.retryCount, data: taken.data });
        options.metrics?.ran(job.name, true, (performance.now() - started) / 1000);
        jobLog.debug({ id: taken.id, ms: Math.round(performance.now() - started) }, 'job done');
      } catch (error) {
        options.metrics?.ran(job.name, false, (performance.now() - started) / 1000);
        jobLog.error({ err: error, id: taken.id, attempt: taken.retryCount }, `${job.name} failed`);
        throw error;
      }
    });
    if ('onDemand' in job.schedule) continue;
    if ('cron' in job.schedule) await boss.schedule(job.name, job.schedule.cron, null, { tz: 'UTC' });
    else {
      const seconds = job.schedule.everySeconds;
      const send = () => void boss.send(job.name, null, { singletonSeconds: seconds }).catch((error: unknown) => jobLog.warn({ err: error }, 'job not sent'));
      send();
      // twice a slot, so that no slot passes without a send whatever the timers' drift; at least
      // once a minute (a send in a slot that has its job is a no-op), which also keeps the timer
      // within what setInterval takes (2^31 - 1 ms: past it Node fires every millisecond)
      const timer = setInterval(send, sendEveryMs(seconds));
      timer.unref();
      timers.push(timer);
    }
  }
  return {
    sendNow: (name) => boss.send(name, null),
    send: (name, data) => boss.send(name, data),
    async stop(timeoutMs = 20_000) {
      for (const timer of timers) clearInterval(timer);
      await boss.stop({ graceful: true, close: true, timeout: timeoutMs });
    },
  };
}

/** How often a process sends an interval job of `seconds`: twice a slot, between 250 ms and a minute. */
export function sendEveryMs(seconds: number): number {
  return Math.min(60_000, Math.max(250, (seconds * 1000) / 2));
}

function queueOptionsOf(job: JobDefinition): QueueOptions {
  const retry = job.retry ?? DEFAULT_RETRY;
  const slot = 'everySeconds' in job.schedule ? job.schedule.everySeconds : 60;
  return {
    retryLimit: retry.limit,
    retryDelay: retry.delaySeconds,
    retryBackoff: retry.backoff ?? false,
    expireInSeconds: job.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    deleteAfterSeconds: Math.max(KEPT_SECONDS, 2 * slot),
  };
}

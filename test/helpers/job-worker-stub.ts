/**
 * A worker process of test/job-queue.test.ts: starts the job queue (libs/service-kit/src/jobs) on
 * DATABASE_URL in JOB_SCHEMA with two jobs whose runs it records in RUNS_TABLE (worker, job, queue
 * name, attempt), says `started` over IPC, and stops on SIGTERM.
 *
 * - `test.tick`, every second;
 * - `test.flaky`, hourly, retried after a second: its first attempt throws;
 * - `test.manual`, on a cron expression of once a year, sent now when the test asks over IPC (`{ send: name }`).
 */
import pg from 'pg';
import { createLogger } from '@platform/kit/log/logger.ts';
import { defineJob } from '@platform/service-kit/jobs/job.ts';
import { startJobQueue } from '@platform/service-kit/jobs/job-queue.ts';

const { DATABASE_URL = '', JOB_SCHEMA = '', RUNS_TABLE = '', WORKER_TAG = '' } = process.env;
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
const record = (name: string, id: string, attempt: number) =>
  pool.query(`insert into ${RUNS_TABLE} (worker, name, job_id, attempt) values ($1, $2, $3, $4)`, [WORKER_TAG, name, id, attempt]);

const queue = await startJobQueue({
  url: DATABASE_URL,
  schema: JOB_SCHEMA,
  pollingIntervalSeconds: 0.5,
  log: createLogger(`job-worker-${WORKER_TAG}`, 'warn'),
  jobs: [
    defineJob({ name: 'test.tick', schedule: { everySeconds: 1 }, run: ({ id, attempt }) => record('test.tick', id, attempt) }),
    defineJob({
      name: 'test.flaky',
      schedule: { everySeconds: 3600 },
      retry: { limit: 2, delaySeconds: 1 },
      run: async ({ id, attempt }) => {
        await record('test.flaky', id, attempt);
        if (attempt === 0) throw new Error('the first attempt fails');
      },
    }),
    defineJob({ name: 'test.manual', schedule: { cron: '0 0 1 1 *' }, run: ({ id, attempt }) => record('test.manual', id, attempt) }),
  ],
});
process.on('message', (message: { send?: string }) => {
  if (message.send) void queue.sendNow(message.send).then((id) => process.send?.({ sent: id }));
});
process.send?.('started');
process.once('SIGTERM', () => {
  void queue
    .stop(5_000)
    .then(() => pool.end())
    .finally(() => process.exit(0));
});

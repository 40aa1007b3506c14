/**
 * Background work on the PostgreSQL queue (libs/service-kit/src/jobs, docs/adr/0143-background-work-on-a-postgresql-queue.md):
 * two worker processes on one database run a scheduled job once per tick, not once each, and a
 * failed run is tried again. Each test takes a pg-boss schema and a table of runs of its own.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import { sendEveryMs } from '@platform/service-kit/jobs/job-queue.ts';
import { sql } from './helpers/db.ts';
import { scrape } from './helpers/metrics.ts';
import { platform } from './helpers/platform.ts';

const STUB = join(import.meta.dirname, 'helpers/job-worker-stub.ts');

interface Run {
  worker: string;
  name: string;
  job_id: string;
  attempt: number;
}

/** A pg-boss schema and a table of runs for one test, dropped after it. */
async function scratch(t: { teardown(fn: () => Promise<unknown>): void }): Promise<{ schema: string; runs: string }> {
  const tag = randomBytes(4).toString('hex');
  const schema = `pgboss_test_${tag}`;
  const runs = `public.job_runs_${tag}`;
  await sql(
    `create table ${runs} (worker text not null, name text not null, job_id text not null, attempt int not null, at timestamptz not null default now())`,
  );
  t.teardown(async () => {
    await sql(`drop table if exists ${runs}`);
    await sql(`drop schema if exists ${schema} cascade`);
  });
  return { schema, runs };
}

/** Starts a worker stub; resolves once its queue is started. */
async function worker(t: { teardown(fn: () => Promise<unknown>): void }, tag: string, schema: string, runs: string): Promise<ChildProcess> {
  const child = fork(STUB, [], {
    env: { ...process.env, DATABASE_URL: platform.databaseUrl, JOB_SCHEMA: schema, RUNS_TABLE: runs, WORKER_TAG: tag },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  t.teardown(() => stop(child));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`worker ${tag} exited with ${code} before it started`)));
  });
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

test.serial('with two workers on one database, a job scheduled every second runs once per second, not once per worker', async (t) => {
  const { schema, runs } = await scratch(t);
  // the first starts pg-boss's schema; the second then joins it
  const first = await worker(t, 'a', schema, runs);
  const second = await worker(t, 'b', schema, runs);
  const from = Date.now();
  await delay(6_000);
  await Promise.all([stop(first), stop(second)]);
  const seconds = (Date.now() - from) / 1000;
  const ticks = await sql<Run>(`select worker, name, job_id, attempt from ${runs} where name = 'test.tick'`);
  // each job ran once, and one job was made per one-second slot, whoever sent it
  t.is(new Set(ticks.map((run) => run.job_id)).size, ticks.length, 'no job ran twice');
  const slots = await sql<{ slot: string; jobs: number }>(
    `select singleton_on::text as slot, count(*)::int as jobs from ${schema}.job where name = 'test.tick' group by 1 order by 1`,
  );
  t.true(slots.length >= 5, `${slots.length} slots had a job`);
  t.deepEqual(
    slots.filter((slot) => slot.jobs !== 1),
    [],
    'one job per slot',
  );
  // both sent all along (a worker alone would fill the slots too): never more runs than seconds passed, and nearly one per second.
  // Counted from the second the two were up: the first may run the slots before, while the second starts (seconds on a loaded machine).
  const [counted] = await sql<{ n: number }>(
    `select count(*)::int as n from ${runs} r join ${schema}.job j on j.id::text = r.job_id where r.name = 'test.tick' and j.singleton_on >= $1`,
    [new Date(Math.floor(from / 1000) * 1000)],
  );
  const during = counted?.n ?? 0;
  t.true(during <= Math.ceil(seconds) + 2, `${during} runs in ${seconds.toFixed(1)} s`);
  t.true(during >= Math.floor(seconds) - 2, `${during} runs in ${seconds.toFixed(1)} s`);
});

test.serial('a job whose run fails is tried again, once per its retry policy, by one of the workers', async (t) => {
  const { schema, runs } = await scratch(t);
  await worker(t, 'a', schema, runs);
  await worker(t, 'b', schema, runs);
  const flakyRuns = () => sql<Run>(`select worker, name, job_id, attempt from ${runs} where name = 'test.flaky' order by at`);
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await delay(200)) {
    if ((await flakyRuns()).some((run) => run.attempt > 0)) break;
  }
  // give a second, wrong, run time to show itself
  await delay(2_000);
  const flaky = await sql<Run>(`select worker, name, job_id, attempt from ${runs} where name = 'test.flaky' order by at`);
  t.deepEqual(
    flaky.map((run) => run.attempt),
    [0, 1],
    'the first attempt failed, the second ran once and no third came',
  );
  t.is(new Set(flaky.map((run) => run.job_id)).size, 1, 'both attempts are of the one job the two workers sent for the hour');
  const [state] = await sql<{ state: string }>(`select state::text from ${schema}.job where name = 'test.flaky'`);
  t.is(state?.state, 'completed');
});

test.serial('a job sent now runs once, outside its schedule; a cron schedule is kept in the queue, not run before its time', async (t) => {
  const { schema, runs } = await scratch(t);
  const first = await worker(t, 'a', schema, runs);
  await worker(t, 'b', schema, runs);
  const [schedule] = await sql<{ cron: string; timezone: string }>(`select cron, timezone from ${schema}.schedule where name = 'test.manual'`);
  t.deepEqual(schedule, { cron: '0 0 1 1 *', timezone: 'UTC' }, 'both workers declared the one schedule');
  const sent = new Promise<string | null>((resolve) =>
    first.on('message', (message: { sent?: string | null }) => message.sent !== undefined && resolve(message.sent)),
  );
  first.send({ send: 'test.manual' });
  const id = await sent;
  t.truthy(id, 'the job was made');
  const manualRuns = () => sql<Run>(`select worker, name, job_id, attempt from ${runs} where name = 'test.manual'`);
  for (const deadline = Date.now() + 10_000; Date.now() < deadline && (await manualRuns()).length === 0;) await delay(200);
  await delay(1_500);
  t.deepEqual(
    (await manualRuns()).map((run) => run.job_id),
    [id],
    'that job ran once, by one of the two workers',
  );
});

test("the suite's workers run the platform's jobs and count them on /metrics; the services run none", async (t) => {
  const dmsWorker = platform.metrics['dms-worker'];
  t.truthy(dmsWorker, 'the suite started dms-svc with its worker');
  // the suite sweeps expired resumable uploads every second (test/run.ts)
  let completed = 0;
  for (const deadline = Date.now() + 10_000; completed === 0 && Date.now() < deadline; await delay(250)) {
    completed = (await scrape(`http://${dmsWorker}`)).sum('job_runs_total', { queue: 'dms.tus-sweep', outcome: 'completed' });
  }
  t.true(completed > 0, 'dms-worker ran the resumable-upload sweep');
  const worker = await scrape(`http://${dmsWorker}`);
  t.true(worker.has('job_run_seconds_count', { queue: 'dms.tus-sweep' }));
  for (const name of ['core-worker', 'bpm-worker'] as const) {
    const address = platform.metrics[name];
    t.truthy(address, `the suite started ${name}`);
    t.true((await scrape(`http://${address}`)).has('process_cpu_seconds_total'), `${name} serves its figures`);
  }
  for (const service of ['core-svc', 'bpm-svc', 'dms-svc'] as const) {
    t.false((await scrape(`http://${platform.metrics[service]}`)).has('job_runs_total'), `${service} runs no job`);
  }
  const [jobs] = await sql<{ n: number }>(`select count(*)::int as n from pgboss.job where name = 'dms.tus-sweep' and state = 'completed'`);
  t.true((jobs?.n ?? 0) > 0, "the sweep's jobs are in the platform's queue (schema pgboss)");
});

test('an interval job is sent twice a slot, never more often than every 250 ms nor less than once a minute, and never past what a timer takes', (t) => {
  t.is(sendEveryMs(1), 500);
  t.is(sendEveryMs(0.1), 250);
  t.is(sendEveryMs(600), 60_000);
  // a year's slot: a timer of half a year would overflow (2^31 - 1 ms) and fire every millisecond
  t.is(sendEveryMs(365 * 86_400), 60_000);
});

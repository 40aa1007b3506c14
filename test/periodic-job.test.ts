/**
 * The one way a process runs periodic work (libs/kit/src/runtime/periodic-job.ts): sweeps, flushes and
 * checks run one at a time, the next timed from the end of the last; a failed run is logged and the
 * next comes; stop() waits for a run under way and starts none after; the timer keeps no process alive.
 */
import { spawnSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import type { Logger } from '@platform/kit/log/logger.ts';
import { startPeriodicJob } from '@platform/kit/runtime/periodic-job.ts';

/** Waits until `done()` holds, up to 10 s (timers run late on a busy machine). */
async function until(done: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done() && Date.now() < deadline;) await delay(10);
}

/** A logger that keeps what is logged at error level. */
function errorLog(): { log: Logger; errors: { err: unknown; msg: string }[] } {
  const errors: { err: unknown; msg: string }[] = [];
  const log = { error: (fields: { err: unknown }, msg: string) => errors.push({ err: fields.err, msg }) } as unknown as Logger;
  return { log, errors };
}

test('a failed run is logged as "<name> failed" with its error, and the next run still comes', async (t) => {
  const { log, errors } = errorLog();
  let runs = 0;
  const failure = new Error('database gone');
  const job = startPeriodicJob({
    name: 'idempotency key sweep',
    everyMs: 20,
    log,
    run: async () => {
      runs++;
      if (runs === 1) throw failure;
    },
  });
  t.teardown(() => job.stop());
  await until(() => runs >= 2);
  t.true(runs >= 2, `${runs} runs`);
  t.deepEqual(errors[0], { err: failure, msg: 'idempotency key sweep failed' });
  t.is(errors.length, 1);
});

test('a slow run is never overlapped: the next starts an interval after it ended', async (t) => {
  const { log } = errorLog();
  let running = 0;
  let most = 0;
  const spans: [number, number][] = [];
  const job = startPeriodicJob({
    name: 'slow sweep',
    everyMs: 20,
    log,
    run: async () => {
      running++;
      most = Math.max(most, running);
      const started = performance.now();
      await delay(60);
      spans.push([started, performance.now()]);
      running--;
    },
  });
  t.teardown(() => job.stop());
  await until(() => spans.length >= 3);
  t.is(most, 1);
  t.true(spans.length >= 2, `${spans.length} runs`);
  for (let i = 1; i < spans.length; i++)
    t.true(spans[i]![0] - spans[i - 1]![1] >= 15, `run ${i + 1} started ${spans[i]![0] - spans[i - 1]![1]} ms after the last ended`);
});

test('stop() waits for the run under way, and no run starts after it', async (t) => {
  const { log } = errorLog();
  let runs = 0;
  let finished = false;
  const job = startPeriodicJob({
    name: 'flush',
    everyMs: 10,
    log,
    run: async () => {
      runs++;
      await delay(80);
      finished = true;
    },
  });
  while (runs === 0) await delay(5);
  await job.stop();
  t.true(finished, 'the run under way ended before stop() resolved');
  await delay(100);
  t.is(runs, 1);
});

test('a process whose only work is a periodic job exits on its own', (t) => {
  const started = performance.now();
  const child = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import { startPeriodicJob } from '@platform/kit/runtime/periodic-job.ts'; startPeriodicJob({ name: 'sweep', everyMs: 60000, log: console, run: async () => {} });",
    ],
    { cwd: process.cwd(), timeout: 30_000, encoding: 'utf8' },
  );
  t.is(child.status, 0, child.stderr);
  t.true(performance.now() - started < 30_000);
});

import type { Logger } from '../log/logger.ts';

/** A job started by startPeriodicJob. */
export interface PeriodicJob {
  /** Cancels the timer and waits for a run in progress; no run starts after. */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions {
  /** What the job does, for the line a failed run logs (`'<name> failed'`): `'idempotency key sweep'`. */
  name: string;
  /** Time between the end of one run and the start of the next; the first run comes this long after start. */
  everyMs: number;
  log: Logger;
  run: () => Promise<unknown>;
}

/**
 * The one way a process runs periodic work (sweeps, flushes, checks): `run` every `everyMs`, the
 * first time one interval after start; one run at a time (the next is timed from the end of the
 * last), so a slow run never overlaps the next. A run that fails is logged at error level,
 * `'<name> failed'`, and the next comes on time. The timer is unref'd: a job never keeps the
 * process alive.
 *
 * @example
 * const job = startPeriodicJob({ name: 'resumable upload sweep', everyMs: 600_000, log, run: () => tus.sweepExpired(log) });
 * await job.stop();
 */
export function startPeriodicJob({ name, everyMs, log, run }: PeriodicJobOptions): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run()
        .then(
          () => undefined,
          (error: unknown) => log.error({ err: error }, `${name} failed`),
        )
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, everyMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

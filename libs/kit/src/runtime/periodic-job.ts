import type { Logger } from '../log/logger.ts';

/** A job started by startPeriodicJob. */
export interface PeriodicJob {
  /** Cancels the timer and waits for a run in progress; no run starts after. */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions {
  /** What the job does, for the line a failed run logs (`'<name> failed'`): `'sessions seen flush'`. */
  name: string;
  /** Time between the end of one run and the start of the next; the first run comes this long after start. */
  everyMs: number;
  log: Logger;
  run: () => Promise<unknown>;
}

/**
 * The one way a process runs periodic work of its own (flushes of what it holds, checks of its
 * health): `run` every `everyMs`, the
 * first time one interval after start; one run at a time (the next is timed from the end of the
 * last), so a slow run never overlaps the next. A run that fails is logged at error level,
 * `'<name> failed'`, and the next comes on time. The timer is unref'd: a job never keeps the
 * process alive. Work that the cluster needs done once, whichever replica does it (retention, sweeps),
 * is a job on the queue instead (libs/service-kit/src/jobs).
 *
 * @example
 * const job = startPeriodicJob({ name: 'sessions seen flush', everyMs: 5_000, log, run: () => seen.flush() });
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

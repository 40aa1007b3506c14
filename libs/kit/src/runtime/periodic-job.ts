/** A job started by startPeriodicJob. */
export interface PeriodicJob {
  /** Cancels the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalSeconds`, the first time one interval after start; one run at a time
 * (the next is timed from the end of the last), so a slow run never overlaps the next. `run` handles
 * its own failures (a rejection is swallowed here so the next run still comes on time). The timer
 * is unref'd: a job never keeps the process alive.
 *
 * @example
 * const job = startPeriodicJob(600, () => sweep().catch((error) => log.error({ err: error }, 'sweep failed')));
 * await job.stop();
 */
export function startPeriodicJob(intervalSeconds: number, run: () => Promise<unknown>): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run()
        .catch(() => undefined)
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, intervalSeconds * 1000);
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

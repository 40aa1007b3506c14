/**
 * The scenario frame of bench/*.ts: settings from the environment, BenchError, cleanups that run
 * even on failure or Ctrl-C, target verdicts and the exit code a missed one gives.
 */

export interface BenchSettings {
  /** Seconds per measured run (BENCH_DURATION, default 10). */
  duration: number;
  /** Concurrent connections of autocannon (BENCH_CONNECTIONS, default 50). */
  connections: number;
  /** Measured rounds, each running every target once (BENCH_ROUNDS, default 3). */
  rounds: number;
  /** Seconds of the discarded warm-up run of each target (BENCH_WARMUP, default 5). */
  warmup: number;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  return {
    duration: positiveInt(env, 'BENCH_DURATION', 10),
    connections: positiveInt(env, 'BENCH_CONNECTIONS', 50),
    rounds: positiveInt(env, 'BENCH_ROUNDS', 3),
    warmup: positiveInt(env, 'BENCH_WARMUP', 5, 0),
  };
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new BenchError(`${name}=${raw}: expected a whole number >= ${min}`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Errors, cleanup, the scenario frame

/** A failure the bench reports as such (no stack trace): errors measured, a wrong answer, bad settings. */
export class BenchError extends Error {
  override name = 'BenchError';
}

const cleanups: (() => Promise<void> | void)[] = [];
const missedTargets: string[] = [];

/** Exit code of a scenario that ran to the end but missed a target (run.ts names it so). */
export const TARGET_MISSED_EXIT = 3;

/**
 * The verdict on one target, `met` or `MISSED`, for printing; a missed one makes the scenario exit
 * with TARGET_MISSED_EXIT after it has printed everything and cleaned up.
 */
export function judge(target: string, met: boolean): 'met' | 'MISSED' {
  if (!met) missedTargets.push(target);
  return met ? 'met' : 'MISSED';
}
let stopCurrentRun: (() => void) | undefined;
let interrupted = false;

/** What stops the measurement in progress on Ctrl-C (undefined once it has ended). */
export function onInterrupt(stop: (() => void) | undefined): void {
  stopCurrentRun = stop;
}

/** Whether the scenario was interrupted (SIGINT / SIGTERM): a measurement cut short is not reported. */
export function wasInterrupted(): boolean {
  return interrupted;
}

/** Registers work to undo at the end of the scenario (last registered, first run), even on failure or Ctrl-C. */
export function onCleanup(work: () => Promise<void> | void): void {
  cleanups.push(work);
}

async function runCleanups(): Promise<void> {
  for (let work = cleanups.pop(); work; work = cleanups.pop()) {
    try {
      await work();
    } catch (error) {
      console.error('# cleanup failed:', error instanceof Error ? error.message : error);
    }
  }
}

/**
 * Runs a scenario: prints its title, runs `main`, then the cleanups; exits 1 on any failure (with
 * the message only, for a BenchError) and 130 on SIGINT / SIGTERM after cleaning up.
 */
export async function runScenario(title: string, main: () => Promise<void>): Promise<never> {
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n# ${signal}: stopping ${title} and cleaning up`);
    stopCurrentRun?.();
    void runCleanups().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  console.log(`\n=== ${title} ===`);
  let code = 0;
  try {
    await main();
  } catch (error) {
    if (interrupted) await new Promise(() => undefined); // the signal handler exits
    code = 1;
    console.error(
      `\n# ${title} FAILED: ${error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
  if (interrupted) await new Promise(() => undefined);
  await runCleanups();
  if (code === 0 && missedTargets.length > 0) {
    console.log(`\n# ${title}: targets MISSED: ${missedTargets.join('; ')}`);
    code = TARGET_MISSED_EXIT;
  }
  process.exit(code);
}

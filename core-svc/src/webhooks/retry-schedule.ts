/** How far each retry's delay may stray from the schedule, either way, so that failed deliveries do not retry in step. */
const JITTER = 0.2;

/**
 * The delay before the next attempt after `attempts` failed ones, jittered by ±20 %; undefined when
 * the schedule is spent (the delivery has failed for good).
 *
 * @example
 * nextDelayMs([5_000, 300_000], 1) // about 5 s; nextDelayMs([5_000, 300_000], 3) // undefined
 */
export function nextDelayMs(schedule: readonly number[], attempts: number, random: () => number = Math.random): number | undefined {
  const delay = schedule[attempts - 1];
  if (delay === undefined) return undefined;
  return Math.round(delay * (1 - JITTER + 2 * JITTER * random()));
}

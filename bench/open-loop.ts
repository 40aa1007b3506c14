/**
 * An open-loop load generator: request i of a run is due at t0 + i / rate and is sent then, whether
 * or not earlier ones have answered, and its latency is counted from that due time, not from when
 * it went out. A server that stalls for 80 ms is charged 80 ms on every request due meanwhile
 * (coordinated omission corrected), as the users sending them would see it; a closed loop would
 * only have sent fewer requests. The generator's own lateness (timers fire on 1 ms ticks, the event
 * loop may be busy) lands in every target's figures alike.
 *
 * @example
 * const run = await openLoop({ url: 'http://127.0.0.1:8080/api/branch/1', headers }, { rate: 1000, seconds: 30 });
 * latencySummary(run.steady).p99;
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { BenchError, ID_TAG, percentile, type Target } from './lib.ts';

export interface OpenLoopRun {
  /** Latencies in ms (sorted) of the requests due after the first second. */
  steady: Float64Array;
  /** Latencies in ms (sorted) of the requests due in the first second, while connections open. */
  firstSecond: Float64Array;
  /** Per second of the run: the slowest latency of the requests due in it (ms), to show when stalls came. */
  worstPerSecond: number[];
  /** Requests sent. */
  sent: number;
  /** When request 0 was due, in ms since the epoch: second s of worstPerSecond began s seconds later. */
  startedAt: number;
}

/** How many connections the generator may hold open: enough that no request waits for one even through a stall. */
const MAX_SOCKETS = 512;
/** A request not answered within this is a failure of the run. */
const TIMEOUT_MS = 10_000;

export interface OpenLoopOptions {
  rate: number;
  seconds: number;
  /**
   * Hears every 200 answer's body with the moment it ended (performance.now()); the body is only
   * gathered when this is given.
   */
  onAnswer?: (index: number, body: Buffer, answeredAt: number) => void;
}

/**
 * Sends `rate` requests per second for `seconds` seconds, open loop, on fresh keep-alive
 * connections (opened as the first requests need them). Every answer must be 200; anything else
 * fails the run. Each `[<id>]` in the body becomes an id of its own per request (the run's random
 * prefix and the request's index).
 */
export async function openLoop(target: Target, options: OpenLoopOptions): Promise<OpenLoopRun> {
  const { rate, seconds, onAnswer } = options;
  const runTag = randomBytes(4).toString('hex');
  const tagged = target.body?.includes(ID_TAG) ?? false;
  const bodyOf = (index: number): string | undefined => (tagged ? target.body?.replaceAll(ID_TAG, `${runTag}-${index}`) : target.body);
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const latencies = new Float64Array(total);
  let done = 0;
  let failure: string | undefined;
  let next = 0;
  const t0 = performance.now() + 20;
  const url = new URL(target.url);

  const finished = new Promise<void>((resolve) => {
    const settle = (): void => {
      if (++done === total) resolve();
    };
    const send = (index: number, due: number): void => {
      const req = request(url, { method: target.method ?? 'GET', headers: target.headers, agent, timeout: TIMEOUT_MS }, (res) => {
        if (res.statusCode !== 200) failure ??= `request ${index}: HTTP ${res.statusCode}`;
        const chunks: Buffer[] = [];
        if (onAnswer) res.on('data', (chunk: Buffer) => chunks.push(chunk));
        else res.resume();
        res.on('end', () => {
          const answeredAt = performance.now();
          latencies[index] = answeredAt - due;
          if (onAnswer && res.statusCode === 200) onAnswer(index, Buffer.concat(chunks), answeredAt);
          settle();
        });
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
      req.on('error', (error) => {
        failure ??= `request ${index}: ${error.message}`;
        latencies[index] = NaN;
        settle();
      });
      req.end(bodyOf(index));
    };
    const tick = (): void => {
      const now = performance.now();
      while (next < total && t0 + next * interval <= now) {
        send(next, t0 + next * interval);
        next++;
      }
      if (next < total) setTimeout(tick, Math.max(0, t0 + next * interval - performance.now()));
    };
    setTimeout(tick, 20);
  });
  await finished;
  agent.destroy();
  if (failure) throw new BenchError(`${target.url}: ${failure}`);

  const perSecond = Math.round(rate);
  const firstSecond = Float64Array.from(latencies.subarray(0, Math.min(perSecond, total))).sort();
  const steady = Float64Array.from(latencies.subarray(Math.min(perSecond, total))).sort();
  const worstPerSecond: number[] = [];
  for (let from = 0; from < total; from += perSecond) {
    let worst = 0;
    for (let i = from; i < Math.min(from + perSecond, total); i++) worst = Math.max(worst, latencies[i] ?? 0);
    worstPerSecond.push(worst);
  }
  return { steady, firstSecond, worstPerSecond, sent: total, startedAt: performance.timeOrigin + t0 };
}

/** p50, p90, p99, p99.9 and max of sorted latencies. */
export function latencySummary(sorted: Float64Array): { p50: number; p90: number; p99: number; p999: number; max: number } {
  const values = Array.from(sorted);
  return {
    p50: percentile(values, 0.5),
    p90: percentile(values, 0.9),
    p99: percentile(values, 0.99),
    p999: percentile(values, 0.999),
    max: values.at(-1) ?? NaN,
  };
}

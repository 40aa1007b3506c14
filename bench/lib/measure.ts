/**
 * Closed-loop measuring with autocannon, refusing to measure errors; percentiles and medians.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type CpuWatch, cpuSnapshot, cpuUsed } from './cpu.ts';
import { http } from './platform.ts';
import { BenchError, onInterrupt, wasInterrupted } from './scenario.ts';

export interface Target {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /**
   * A JSON body, sent as is with `content-type: application/json` (set it in `headers`); each
   * `[<id>]` in it becomes a fresh id per request (unique fields of a create).
   */
  body?: string;
}

export interface Figures {
  /** autocannon's mean of its per-second request counts. */
  requestsPerSec: number;
  /** Latency percentiles in ms, computed from every 2xx response's own timing (sub-millisecond). */
  p50: number;
  p99: number;
  /** Responses completed. */
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU µs per request of each watched process (and of this process, `bench client`). */
  cpuPerRequest: Record<string, number>;
  /** Machine-wide context switches per completed request (/proc/stat `ctxt`). */
  switchesPerRequest: number;
  /** Share of the machine's CPU time the hypervisor gave to others during the run (/proc/stat steal). */
  stealShare: number;
}

interface AutocannonResult {
  requests: { mean: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): void;
  stop(): void;
}

type Autocannon = (
  options: {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    idReplacement?: boolean;
    duration: number;
    connections: number;
    timeout?: number;
  },
  callback: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;

/** What autocannon replaces with a fresh id in every request's body (its idReplacement). */
export const ID_TAG = '[<id>]';

// autocannon is CommonJS and ships no types: load it with require and describe what is used.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/**
 * One autocannon run of `duration` seconds with `connections` connections against `target`.
 * Throws a BenchError when any response was not 2xx, any request failed or timed out, or nothing
 * completed: a benchmark of errors measures nothing.
 */
export async function measure(target: Target, options: { duration: number; connections: number; cpu?: CpuWatch; label?: string }): Promise<Figures> {
  const latencies: number[] = [];
  const before = cpuSnapshot(options.cpu ?? {});
  const machineBefore = machineSnapshot();
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method ?? 'GET',
        headers: target.headers ?? {},
        body: target.body,
        idReplacement: target.body?.includes(ID_TAG) ?? false,
        duration: options.duration,
        connections: options.connections,
        timeout: 10,
      },
      (error, res) => {
        onInterrupt(undefined);
        if (error) reject(error);
        else resolve(res);
      },
    );
    onInterrupt(() => instance.stop());
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  if (wasInterrupted()) throw new BenchError('interrupted');
  const after = cpuSnapshot(options.cpu ?? {});
  const machineAfter = machineSnapshot();
  const label = options.label ?? target.url;
  const completed = result['2xx'] + result.non2xx;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result['2xx'] === 0) {
    const codes = Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}: ${count}`)
      .join(', ');
    let sample: string;
    try {
      const answer = await http(target.method ?? 'GET', target.url, {
        headers: target.headers,
        body: target.body === undefined ? undefined : JSON.parse(target.body),
      });
      sample = `; one request now answers ${answer.status}: ${answer.text.slice(0, 300)}`;
    } catch (error) {
      sample = `; one request now fails: ${error instanceof Error ? error.message : error}`;
    }
    throw new BenchError(
      `${label}: not every response was 2xx, so nothing was measured: ${result['2xx']} 2xx, ${result.non2xx} non-2xx, ` +
        `${result.errors} errors, ${result.timeouts} timeouts (status codes ${codes || 'none'})${sample}`,
    );
  }
  latencies.sort((a, b) => a - b);
  const cpuPerRequest: Record<string, number> = {};
  for (const [name, ms] of Object.entries(cpuUsed(before, after))) cpuPerRequest[name] = (ms * 1000) / completed;
  return {
    requestsPerSec: result.requests.mean,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    requests: completed,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cpuPerRequest,
    switchesPerRequest: (machineAfter.switches - machineBefore.switches) / completed,
    stealShare: (machineAfter.steal - machineBefore.steal) / Math.max(1, machineAfter.total - machineBefore.total),
  };
}

/** Machine-wide counters of /proc/stat: context switches, and CPU ticks in all and stolen. */
function machineSnapshot(): { switches: number; steal: number; total: number } {
  const stat = readFileSync('/proc/stat', 'utf8');
  const cpu = /^cpu\s+(.*)$/m.exec(stat)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
  // user nice system idle iowait irq softirq steal guest guest_nice: guest time is already in user.
  const total = cpu.slice(0, 8).reduce((sum, ticks) => sum + ticks, 0);
  return { switches: Number(/^ctxt\s+(\d+)$/m.exec(stat)?.[1] ?? NaN), steal: cpu[7] ?? NaN, total };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] ?? NaN;
}

/** CLOCK_MONOTONIC in µs: the clock of the timestamps in V8 CPU profiles (startTime, samples). */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

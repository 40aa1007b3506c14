/**
 * Two configurations of one request measured in turn, round by round, and judged by their ratio:
 * the shape of the scenarios that weigh a variant against its baseline in the same run
 * (branch-get-token: a token against a session; branch-get-pooled: PgBouncer against a direct
 * connection).
 */
import { median, type Figures } from './measure.ts';
import { fmt, printTable } from './output.ts';
import { judge, type BenchSettings } from './scenario.ts';

export interface PairedRounds<N extends string> {
  /** The baseline first, then the variant judged against it. */
  names: readonly [N, N];
  settings: BenchSettings;
  /** One closed-loop run of `name` for `duration` seconds. */
  run: (name: N, duration: number) => Promise<Figures>;
  /** The least ratio of the variant's req/s to the baseline's (median of the rounds' ratios). */
  target: number;
  /** What the verdict is named, e.g. `branch-get token/session req/s`. */
  label: string;
}

/**
 * A warm-up of each (discarded), then `settings.rounds` rounds of both, the order rotated every
 * round; prints each run, the medians per configuration with CPU per request per process, and the
 * variant/baseline ratio of req/s with its verdict (met or MISSED). Answers the ratio.
 */
export async function pairedRounds<N extends string>({ names, settings, run, target, label }: PairedRounds<N>): Promise<number> {
  const [base, variant] = names;
  const width = Math.max(base.length, variant.length);
  if (settings.warmup > 0)
    for (const name of names) console.log(`# warm-up ${name.padEnd(width)} ${fmt((await run(name, settings.warmup)).requestsPerSec)} req/s (discarded)`);

  const results = new Map<N, Figures[]>(names.map((name) => [name, []]));
  for (let round = 1; round <= settings.rounds; round++) {
    for (const name of round % 2 === 1 ? names : [...names].reverse()) {
      const figures = await run(name, settings.duration);
      results.get(name)?.push(figures);
      console.log(
        `# round ${round} ${name.padEnd(width)} ${fmt(figures.requestsPerSec).padStart(7)} req/s  p50 ${fmt(figures.p50, 2)} ms  p99 ${fmt(figures.p99, 2)} ms  (${fmt(figures.requests)} requests, all 2xx)`,
      );
    }
  }

  const of = (name: N): Figures[] => results.get(name) ?? [];
  const ratios = of(variant).map((figures, i) => figures.requestsPerSec / (of(base)[i]?.requestsPerSec ?? NaN));
  const processes = Object.keys(of(base)[0]?.cpuPerRequest ?? {});
  const med = (name: N, pick: (figures: Figures) => number) => fmt(median(of(name).map(pick)), 0);
  console.log(`\nMedian of ${settings.rounds} rounds (${settings.duration} s, ${settings.connections} connections each):`);
  printTable(
    ['target', 'req/s', 'p50 ms', 'p99 ms', ...processes.map((process) => `${process} µs/req`)],
    names.map((name) => [
      name,
      med(name, (f) => f.requestsPerSec),
      fmt(median(of(name).map((f) => f.p50)), 2),
      fmt(median(of(name).map((f) => f.p99)), 2),
      ...processes.map((process) => med(name, (f) => f.cpuPerRequest[process] ?? NaN)),
    ]),
  );
  const ratio = median(ratios);
  console.log(
    `\n${variant}/${base}: req/s ${fmt(ratio, 2)} (rounds ${ratios.map((r) => fmt(r, 2)).join(', ')}); ` +
      `target ${variant}/${base} >= ${fmt(target, 2)}: ${judge(label, ratio >= target)}`,
  );
  return ratio;
}

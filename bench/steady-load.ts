/**
 * Scenario steady-load: latency as users feel it at the load they send. GET /api/branch/{id}
 * through the gateway (the whole chain, as in branch-get) and the same row from the bare baseline,
 * each at a steady rate (BENCH_STEADY_RATES, default 500 and 1,000 requests/s) for BENCH_STEADY_SECONDS
 * (default 30) after a warm-up, open loop (bench/open-loop.ts: each request sent when due, timed
 * from when it was due), alternating gateway and baseline over BENCH_ROUNDS rounds (default 3, the
 * order reversed every other round). Prints p50, p90, p99, p99.9 and max per target and rate, the
 * gateway's excess over the baseline per round, the first second after connections open apart,
 * and the seconds whose slowest request took over STALL_MS (a periodic pause shows as a rhythm).
 * Targets, per rate, on the median of the rounds' differences (gateway minus baseline): p50 ≤ +1 ms,
 * p99 ≤ +5 ms, p99.9 ≤ +10 ms. The checked hop (branch-get's floor reference) runs beside them and
 * prints its own excess, for reference.
 *
 *   npm run bench -- steady-load
 *   BENCH_STEADY_SECONDS=5 BENCH_ROUNDS=1 BENCH_STEADY_RATES=500 node bench/steady-load.ts   (a quick check)
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBranchTargets, type BranchTargetName } from './branch-targets.ts';
import { figuresOf, type GcPause } from './gc-watch.ts';
import { BenchError, fmt, judge, median, printTable, runScenario, settingsFromEnv } from './lib.ts';
import { latencySummary, openLoop, type OpenLoopRun } from './open-loop.ts';

/** Allowed excess of the gateway over the baseline, ms, per percentile. */
const TARGETS = { p50: 1, p99: 5, p999: 10 } as const;
/** A second whose slowest request took longer than this is listed as a stall. */
const STALL_MS = 50;
/**
 * The gateway and the baseline, and the checked hop (bench/grpc-hop-server.ts: one grpc-js hop with
 * the limiter and the live access statement alone) as a reference with no target: its excess over
 * the baseline is the tail the path's processes and checks add before any of the platform's layering.
 */
const NAMES = ['gateway', 'baseline', 'checked-hop'] as const satisfies readonly BranchTargetName[];
/** Collector pauses this long or longer are printed with the run they fell in. */
const PAUSE_PRINTED_MS = 10;
const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
type Name = (typeof NAMES)[number];

await runScenario('steady-load: GET /api/branch/{id} at steady rates, open loop, via the gateway vs bare node:http + pg', async () => {
  const { rounds } = settingsFromEnv();
  const seconds = Number(process.env.BENCH_STEADY_SECONDS ?? 30);
  const warmup = Number(process.env.BENCH_STEADY_WARMUP ?? 10);
  const rates = (process.env.BENCH_STEADY_RATES ?? '500,1000').split(',').map(Number);
  if (!Number.isFinite(seconds) || seconds < 2) throw new BenchError(`BENCH_STEADY_SECONDS=${process.env.BENCH_STEADY_SECONDS}: at least 2`);
  if (rates.some((rate) => !Number.isInteger(rate) || rate < 1)) throw new BenchError(`BENCH_STEADY_RATES=${process.env.BENCH_STEADY_RATES}: whole numbers`);
  console.log(`# ${rounds} rounds x ${seconds} s per target per rate (${rates.join(', ')} req/s), ${warmup} s warm-up per target per rate`);

  // Every process of the path watches its own collector (bench/gc-watch.ts): each run then lists the
  // long pauses of the processes it went through, at the second of the run they began in.
  process.env.BENCH_NODE_FLAGS = `${process.env.BENCH_NODE_FLAGS ?? ''} --import=${join(BENCH_DIR, 'gc-watch.ts')}`.trim();
  const { platform, targets, baseline, checkedHop, checkedHopBack } = await startBranchTargets();
  const pids = platform.platform.pids;
  const watched: Record<Name, [string, number][]> = {
    gateway: [
      ['gateway', pids.gateway],
      ['bpm-svc', pids['bpm-svc']],
    ],
    baseline: [['baseline', baseline.pid]],
    'checked-hop': [
      ['checked front', checkedHop.pid],
      ['checked back', checkedHopBack.pid],
    ],
  };
  const results: Record<string, OpenLoopRun[]> = {};
  for (const rate of rates) {
    if (warmup > 0) for (const name of NAMES) await openLoop(targets[name], { rate, seconds: warmup });
    for (let round = 1; round <= rounds; round++) {
      const order: readonly Name[] = round % 2 === 1 ? NAMES : [...NAMES].reverse();
      for (const name of order) {
        for (const [, pid] of watched[name]) process.kill(pid, 'SIGTTIN');
        const run = await openLoop(targets[name], { rate, seconds });
        for (const [, pid] of watched[name]) process.kill(pid, 'SIGTTOU');
        const pauses: [string, GcPause][] = [];
        for (const [who, pid] of watched[name]) for (const pause of (await figuresOf(pid)).pauses) if (pause.ms >= PAUSE_PRINTED_MS) pauses.push([who, pause]);
        (results[`${name} ${rate}`] ??= []).push(run);
        const s = latencySummary(run.steady);
        const f = latencySummary(run.firstSecond);
        const stalls = run.worstPerSecond.map((worst, second) => [second, worst] as const).filter(([, worst]) => worst > STALL_MS);
        console.log(
          `# ${rate} req/s round ${round} ${name.padEnd(8)} p50 ${fmt(s.p50, 2)}  p90 ${fmt(s.p90, 2)}  p99 ${fmt(s.p99, 2)}  p99.9 ${fmt(s.p999, 2)}  max ${fmt(s.max, 1)} ms` +
            ` | first second: p50 ${fmt(f.p50, 2)} p99 ${fmt(f.p99, 1)} max ${fmt(f.max, 1)} ms` +
            ` | seconds over ${STALL_MS} ms: ${stalls.length === 0 ? 'none' : stalls.map(([second, worst]) => `${second}s:${fmt(worst)}`).join(' ')}` +
            ` | collector pauses over ${PAUSE_PRINTED_MS} ms: ${pauses.length === 0 ? 'none' : pauses.map(([who, p]) => `${who} ${p.kind} ${fmt(p.ms)} ms at ${fmt((p.at - run.startedAt) / 1000, 1)}s`).join(', ')}`,
        );
      }
    }
  }

  for (const rate of rates) {
    console.log(`\n${fmt(rate)} req/s, steady part (after the first second), per round (ms):`);
    const gateway = results[`gateway ${rate}`] ?? [];
    const baseline = results[`baseline ${rate}`] ?? [];
    const checked = results[`checked-hop ${rate}`] ?? [];
    const excess = { p50: [] as number[], p99: [] as number[], p999: [] as number[] };
    const checkedExcess = { p50: [] as number[], p99: [] as number[], p999: [] as number[] };
    printTable(
      [
        'round',
        'gw p50',
        'gw p90',
        'gw p99',
        'gw p99.9',
        'gw max',
        'base p50',
        'base p90',
        'base p99',
        'base p99.9',
        'base max',
        '+p50',
        '+p99',
        '+p99.9',
        'checked +p50',
        '+p99',
        '+p99.9',
      ],
      gateway.map((run, i) => {
        const g = latencySummary(run.steady);
        const b = latencySummary(baseline[i]?.steady ?? new Float64Array());
        const c = latencySummary(checked[i]?.steady ?? new Float64Array());
        // each percentile's excess over the baseline, kept for the medians and printed in the row
        const over = (x: typeof g, into: typeof excess) =>
          (Object.keys(into) as (keyof typeof into)[]).map((key) => {
            into[key].push(x[key] - b[key]);
            return fmt(x[key] - b[key], 2);
          });
        return [
          String(i + 1),
          ...[g.p50, g.p90, g.p99, g.p999, g.max, b.p50, b.p90, b.p99, b.p999, b.max].map((v) => fmt(v, 2)),
          ...over(g, excess),
          ...over(c, checkedExcess),
        ];
      }),
    );
    const firsts = (runs: OpenLoopRun[]) => runs.map((run) => latencySummary(run.firstSecond));
    console.log(
      `first second (connections opening), median of rounds: gateway p50 ${fmt(median(firsts(gateway).map((f) => f.p50)), 2)} p99 ${fmt(median(firsts(gateway).map((f) => f.p99)), 1)} max ${fmt(median(firsts(gateway).map((f) => f.max)), 1)} ms; ` +
        `baseline p50 ${fmt(median(firsts(baseline).map((f) => f.p50)), 2)} p99 ${fmt(median(firsts(baseline).map((f) => f.p99)), 1)} max ${fmt(median(firsts(baseline).map((f) => f.max)), 1)} ms`,
    );
    console.log(
      `checked-hop (the hop with the limiter and the live access alone; reference, no target), median of the rounds' checked-hop - baseline: ` +
        `p50 +${fmt(median(checkedExcess.p50), 2)} ms, p99 +${fmt(median(checkedExcess.p99), 2)} ms, p99.9 +${fmt(median(checkedExcess.p999), 2)} ms`,
    );
    const verdicts = (Object.keys(TARGETS) as (keyof typeof TARGETS)[]).map((key) => {
      const value = median(excess[key]);
      const label = key === 'p999' ? 'p99.9' : key;
      return `${label} +${fmt(value, 2)} ms <= +${TARGETS[key]} ms: ${judge(`${rate} req/s ${label}`, value <= TARGETS[key])}`;
    });
    console.log(`targets at ${fmt(rate)} req/s (median of the rounds' gateway - baseline): ${verdicts.join('; ')}`);
  }
});

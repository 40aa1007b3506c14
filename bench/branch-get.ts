/**
 * Scenario branch-get: `GET /api/branch/{id}` through the gateway with the whole chain on (API
 * routing, the Redis rate limiter consulted on every request, JWT check and the live
 * tokenVersion/session read, one gRPC call to bpm-svc, which verifies the token again and reads the
 * row) against a baseline that does only the irreducible work: a bare `node:http` server reading the
 * same row with a `pg` prepared statement and answering the same JSON (bench/baseline-server.ts).
 * Targets: gateway ≥ 0.25 × the baseline's requests/s, gateway p99 ≤ 4 × the baseline's p99.
 *
 * All are measured in the same run, alternating (gateway, baseline, grpc-hop, then the reverse, …) so
 * that drift of the machine hits both alike; the figures to compare are the ratios.
 *
 *   npm run bench                                  (every scenario)
 *   node bench/branch-get.ts                       (this one)
 *   BENCH_DURATION=3 BENCH_ROUNDS=3 node bench/branch-get.ts
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3), BENCH_WARMUP
 * (s, 5), BENCH_CPU_PROF (a folder: CPU profiles of the services), TEST_DATABASE_URL /
 * TEST_EMBEDDED_PG (which PostgreSQL, as for `npm test`), REDIS_URL (the limiter's Redis; default
 * the local one, which must answer).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BRANCH_TARGET_NAMES, startBranchTargets, type BranchTargetName } from './branch-targets.ts';
import {
  BENCH_RATE_LIMIT,
  BenchError,
  fmt,
  http,
  measure,
  median,
  monotonicMicros,
  printTable,
  runScenario,
  settingsFromEnv,
  type CpuWatch,
  type Figures,
} from './lib.ts';

/** The gateway should reach at least this share of the baseline's requests/s … */
const TARGET_RPS_RATIO = 0.25;
/** … with a p99 at most this multiple of the baseline's. */
const TARGET_P99_RATIO = 4;
/** The gateway, the bare baseline, and one grpc-js hop alone (a reference: no target of its own). */
const NAMES = BRANCH_TARGET_NAMES;
type Name = BranchTargetName;

await runScenario('branch-get: GET /api/branch/{id} via the gateway vs bare node:http + pg', async () => {
  const settings = settingsFromEnv();
  console.log(
    `# ${settings.rounds} rounds x ${settings.duration} s per target, ${settings.connections} connections, ` +
      `${settings.warmup} s warm-up per target`,
  );

  const { platform, targets, baseline, hop, hopBack } = await startBranchTargets();

  const pids = platform.platform.pids;
  const cpu: CpuWatch = {
    gateway: pids.gateway,
    'bpm-svc': pids['bpm-svc'],
    baseline: baseline.pid,
    'hop front': hop.pid,
    'hop back': hopBack.pid,
    postgres: 'postgres',
    redis: 'redis-server',
  };
  const run = (name: Name, duration: number): Promise<Figures> =>
    measure(targets[name], { duration, connections: settings.connections, cpu, label: name });

  if (settings.warmup > 0) {
    for (const name of NAMES) {
      const figures = await run(name, settings.warmup);
      console.log(`# warm-up ${name.padEnd(8)} ${fmt(figures.requestsPerSec)} req/s (discarded)`);
    }
  }

  // The limiter answers every gateway request (its headers carry the bench's limit), and Redis
  // runs its script at least once per completed gateway request during each measured run.
  const limitHeader = (await http('GET', targets.gateway.url, { headers: targets.gateway.headers })).headers.get('ratelimit-limit');
  if (limitHeader !== BENCH_RATE_LIMIT) throw new BenchError(`the gateway answered RateLimit-Limit ${limitHeader}, expected ${BENCH_RATE_LIMIT}: is the limiter on?`);

  const results: Record<Name, Figures[]> = { gateway: [], baseline: [], 'grpc-hop': [] };
  const redisScripts: number[] = [];
  const logMark = await platform.logMark();
  const measured = { from: monotonicMicros(), to: 0 };
  for (let round = 1; round <= settings.rounds; round++) {
    const order: readonly Name[] = round % 2 === 1 ? NAMES : [...NAMES].reverse();
    for (const name of order) {
      const scriptsBefore = await platform.redisScriptCalls();
      const figures = await run(name, settings.duration);
      const scripts = (await platform.redisScriptCalls()) - scriptsBefore;
      results[name].push(figures);
      let limiter = '';
      if (name === 'gateway') {
        if (scripts < figures.requests) {
          throw new BenchError(`round ${round}: Redis ran ${scripts} scripts for ${figures.requests} gateway requests: the limiter was not consulted on every request`);
        }
        redisScripts.push(scripts / figures.requests);
        limiter = `; Redis limiter: ${fmt(scripts)} scripts`;
      }
      console.log(
        `# round ${round} ${name.padEnd(8)} ${fmt(figures.requestsPerSec).padStart(7)} req/s  ` +
          `p50 ${fmt(figures.p50, 2)} ms  p99 ${fmt(figures.p99, 2)} ms  (${fmt(figures.requests)} requests, all 2xx${limiter}; ` +
          `${fmt(figures.switchesPerRequest, 1)} context switches per request, steal ${fmt(figures.stealShare * 100, 1)} %)`,
      );
    }
  }

  measured.to = monotonicMicros();
  if (platform.profileDir) {
    // Lets bench/profile-summary.ts keep only the measured rounds and name each profile's process.
    const processes = { ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [pid, name])), [baseline.pid]: 'baseline', [hop.pid]: 'hop front', [hopBack.pid]: 'hop back' };
    await writeFile(join(platform.profileDir, 'bench-window.json'), JSON.stringify({ scenario: 'branch-get', ...measured, processes }, null, 2));
  }

  // Per round, with the ratios of that round (both runs a few seconds apart).
  console.log('\nPer round:');
  const perRound: string[][] = [];
  for (let i = 0; i < settings.rounds; i++) {
    const g = results.gateway[i];
    const b = results.baseline[i];
    const h = results['grpc-hop'][i];
    if (!g || !b || !h) continue;
    perRound.push([
      String(i + 1),
      fmt(g.requestsPerSec),
      fmt(g.p50, 2),
      fmt(g.p99, 2),
      fmt(b.requestsPerSec),
      fmt(b.p50, 2),
      fmt(b.p99, 2),
      fmt(g.requestsPerSec / b.requestsPerSec, 2),
      fmt(g.p99 / b.p99, 2),
      fmt(h.requestsPerSec / b.requestsPerSec, 2),
      fmt(h.p99 / b.p99, 2),
    ]);
  }
  printTable(
    ['round', 'gw req/s', 'gw p50 ms', 'gw p99 ms', 'base req/s', 'base p50 ms', 'base p99 ms', 'req/s ratio', 'p99 ratio', 'hop req/s ratio', 'hop p99 ratio'],
    perRound,
  );

  const med = (name: Name, pick: (f: Figures) => number): number => median(results[name].map(pick));
  console.log(`\nMedian of ${settings.rounds} rounds (${settings.duration} s, ${settings.connections} connections each):`);
  printTable(
    ['target', 'req/s', 'p50 ms', 'p99 ms'],
    NAMES.map((name) => [name, fmt(med(name, (f) => f.requestsPerSec)), fmt(med(name, (f) => f.p50), 2), fmt(med(name, (f) => f.p99), 2)]),
  );
  const rpsRatio = med('gateway', (f) => f.requestsPerSec) / med('baseline', (f) => f.requestsPerSec);
  const p99Ratio = med('gateway', (f) => f.p99) / med('baseline', (f) => f.p99);
  const p50Ratio = med('gateway', (f) => f.p50) / med('baseline', (f) => f.p50);
  const roundRatios = results.gateway.map((g, i) => g.requestsPerSec / (results.baseline[i]?.requestsPerSec ?? NaN));
  console.log(
    `\ngateway/baseline: req/s ${fmt(rpsRatio, 2)} (rounds ${fmt(Math.min(...roundRatios), 2)}-${fmt(Math.max(...roundRatios), 2)}), ` +
      `p99 ${fmt(p99Ratio, 2)}, p50 ${fmt(p50Ratio, 2)}`,
  );
  const hopRps = med('grpc-hop', (f) => f.requestsPerSec) / med('baseline', (f) => f.requestsPerSec);
  console.log(
    `grpc-hop/baseline (one grpc-js hop alone, for reference): req/s ${fmt(hopRps, 2)}, p99 ${fmt(med('grpc-hop', (f) => f.p99) / med('baseline', (f) => f.p99), 2)}; ` +
      `gateway/grpc-hop: req/s ${fmt(rpsRatio / hopRps, 2)}`,
  );
  console.log(
    `targets: req/s ratio >= ${fmt(TARGET_RPS_RATIO, 2)}: ${rpsRatio >= TARGET_RPS_RATIO ? 'met' : 'MISSED'}; ` +
      `p99 ratio <= ${fmt(TARGET_P99_RATIO, 2)}: ${p99Ratio <= TARGET_P99_RATIO ? 'met' : 'MISSED'} ` +
      `(Redis limiter scripts per gateway request: ${fmt(median(redisScripts), 2)})`,
  );

  // Where the CPU goes: µs of CPU per request of each process, median over the rounds.
  console.log('\nCPU per request (µs, median of rounds; "bench client" is autocannon in this process):');
  const processes = Object.keys(results.gateway[0]?.cpuPerRequest ?? {});
  printTable(
    ['target', ...processes, 'total'],
    NAMES.map((name) => {
      const values = processes.map((process) => med(name, (f) => f.cpuPerRequest[process] ?? NaN));
      return [name, ...values.map((v) => fmt(v)), fmt(values.reduce((sum, v) => sum + (Number.isFinite(v) ? v : 0), 0))];
    }),
  );

  const logged = await platform.logSince(logMark);
  if (logged) console.log(`\n# the platform logged during the rounds (LOG_LEVEL=warn), last lines:\n${logged}`);
  if (platform.profileDir) console.log(`\n# CPU profiles: once this scenario has stopped, run: node bench/profile-summary.ts ${platform.profileDir}`);
});

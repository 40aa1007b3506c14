/**
 * Scenario branch-get: `GET /api/branch/{id}` through the gateway with the whole chain on (API
 * routing, the Redis rate limiter consulted on every request, the JWT check, one gRPC call to
 * bpm-svc, which verifies the token again, reads the caller's live session and access, and reads the
 * row) against a baseline that does only the irreducible work: a bare `node:http` server reading the
 * same row with a `pg` prepared statement and answering the same JSON (bench/baseline-server.ts).
 * Targets, each judged on the median of the rounds' own figures: gateway ≥ 0.33 × the baseline's
 * requests/s, ≥ 0.7 × the one-hop reference's (grpc-hop) and ≥ 0.8 × the checked hop's; CPU per
 * gateway request: the gateway ≤ 300 µs, bpm-svc ≤ 220 µs, PostgreSQL ≤ 120 µs (every postgres
 * process of the machine, so another database's work counts too; where none is visible, or none is a
 * backend of the platform's database, that target is MISSED as not measured). Latency is
 * steady-load's, open loop.
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
import pg from 'pg';
import { BRANCH_TARGET_NAMES, startBranchTargets, type BranchTargetName } from './branch-targets.ts';
import {
  BENCH_RATE_LIMIT,
  BenchError,
  commandCpuMs,
  fmt,
  http,
  judge,
  measure,
  median,
  monotonicMicros,
  printTable,
  runScenario,
  settingsFromEnv,
  type CpuWatch,
  type Figures,
  type Target,
} from './lib.ts';

/** The gateway should reach at least this share of the baseline's requests/s … */
const TARGET_RPS_RATIO = 0.33;
/** … and at least this share of one grpc-js hop's (the reference of what the layering must cost at least) … */
const TARGET_HOP_RATIO = 0.7;
/** … and of the checked hop's (the hop with only the checks that must stay exact: the limiter and the live access). */
const TARGET_CHECKED_RATIO = 0.8;
/** CPU per gateway request, µs, median of the rounds, per process: what each part of the path may spend. */
const TARGET_CPU_US = { gateway: 300, 'bpm-svc': 220, postgres: 120 } as const;
/**
 * The gateway, the bare baseline, one grpc-js hop alone, and the gateway's request made by a clerk
 * rather than the super user (the last two references, no target of their own).
 */
const NAMES = [...BRANCH_TARGET_NAMES, 'clerk'] as const;
type Name = BranchTargetName | 'clerk';

await runScenario('branch-get: GET /api/branch/{id} via the gateway vs bare node:http + pg', async () => {
  const settings = settingsFromEnv();
  console.log(
    `# ${settings.rounds} rounds x ${settings.duration} s per target, ${settings.connections} connections, ` + `${settings.warmup} s warm-up per target`,
  );

  const { platform, targets: branchTargets, baseline, hop, hopBack, checkedHop, checkedHopBack, clerk, clerkRoles } = await startBranchTargets();
  const targets: Record<Name, Target> = { ...branchTargets, clerk };

  const pids = platform.platform.pids;
  const cpu: CpuWatch = {
    gateway: pids.gateway,
    'bpm-svc': pids['bpm-svc'],
    baseline: baseline.pid,
    'hop front': hop.pid,
    'hop back': hopBack.pid,
    'checked front': checkedHop.pid,
    'checked back': checkedHopBack.pid,
    postgres: 'postgres',
    redis: 'redis-server',
  };
  const run = (name: Name, duration: number): Promise<Figures> => measure(targets[name], { duration, connections: settings.connections, cpu, label: name });

  if (settings.warmup > 0) {
    for (const name of NAMES) {
      const figures = await run(name, settings.warmup);
      console.log(`# warm-up ${name.padEnd(8)} ${fmt(figures.requestsPerSec)} req/s (discarded)`);
    }
  }

  // The limiter answers every gateway request (its headers carry the bench's limit), and Redis
  // runs its script at least once per completed gateway request during each measured run.
  const limitHeader = (await http('GET', targets.gateway.url, { headers: targets.gateway.headers })).headers.get('ratelimit-limit');
  if (limitHeader !== BENCH_RATE_LIMIT)
    throw new BenchError(`the gateway answered RateLimit-Limit ${limitHeader}, expected ${BENCH_RATE_LIMIT}: is the limiter on?`);

  const results: Record<Name, Figures[]> = { gateway: [], baseline: [], 'grpc-hop': [], 'checked-hop': [], clerk: [] };
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
      if (name === 'gateway' || name === 'clerk' || name === 'checked-hop') {
        if (scripts < figures.requests) {
          throw new BenchError(
            `round ${round}: Redis ran ${scripts} scripts for ${figures.requests} ${name} requests: the limiter was not consulted on every request`,
          );
        }
        if (name === 'gateway') redisScripts.push(scripts / figures.requests);
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
    const processes = {
      ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [pid, name])),
      [baseline.pid]: 'baseline',
      [hop.pid]: 'hop front',
      [hopBack.pid]: 'hop back',
      [checkedHop.pid]: 'checked front',
      [checkedHopBack.pid]: 'checked back',
    };
    await writeFile(join(platform.profileDir, 'bench-window.json'), JSON.stringify({ scenario: 'branch-get', ...measured, processes }, null, 2));
  }

  // Per round, with the ratios of that round (both runs a few seconds apart).
  console.log('\nPer round:');
  const perRound: string[][] = [];
  for (let i = 0; i < settings.rounds; i++) {
    const g = results.gateway[i];
    const b = results.baseline[i];
    const h = results['grpc-hop'][i];
    const c = results['checked-hop'][i];
    if (!g || !b || !h || !c) continue;
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
      fmt(c.requestsPerSec / b.requestsPerSec, 2),
    ]);
  }
  printTable(
    [
      'round',
      'gw req/s',
      'gw p50 ms',
      'gw p99 ms',
      'base req/s',
      'base p50 ms',
      'base p99 ms',
      'req/s ratio',
      'p99 ratio',
      'hop req/s ratio',
      'hop p99 ratio',
      'checked req/s ratio',
    ],
    perRound,
  );

  const med = (name: Name, pick: (f: Figures) => number): number => median(results[name].map(pick));
  console.log(`\nMedian of ${settings.rounds} rounds (${settings.duration} s, ${settings.connections} connections each):`);
  printTable(
    ['target', 'req/s', 'p50 ms', 'p99 ms'],
    NAMES.map((name) => [
      name,
      fmt(med(name, (f) => f.requestsPerSec)),
      fmt(
        med(name, (f) => f.p50),
        2,
      ),
      fmt(
        med(name, (f) => f.p99),
        2,
      ),
    ]),
  );
  // Judged on each round's own ratio (its runs seconds apart), the median of those: two rounds of three
  // that miss are a miss, whatever the medians of the figures taken apart would say.
  const ratios = (of: Name, to: Name) => results[of].map((f, i) => f.requestsPerSec / (results[to][i]?.requestsPerSec ?? NaN));
  const range = (values: number[]) => `rounds ${values.map((v) => fmt(v, 2)).join(', ')}`;
  const toBaseline = ratios('gateway', 'baseline');
  const toHop = ratios('gateway', 'grpc-hop');
  const hopToBaseline = ratios('grpc-hop', 'baseline');
  const p99Ratios = results.gateway.map((g, i) => g.p99 / (results.baseline[i]?.p99 ?? NaN));
  console.log(
    `\ngateway/baseline: req/s ${fmt(median(toBaseline), 2)} (${range(toBaseline)}); p99 ${fmt(median(p99Ratios), 2)} (closed loop: queueing, not judged)`,
  );
  console.log(`grpc-hop/baseline (one grpc-js hop alone, for reference): req/s ${fmt(median(hopToBaseline), 2)} (${range(hopToBaseline)})`);
  console.log(`gateway/grpc-hop: req/s ${fmt(median(toHop), 2)} (${range(toHop)})`);
  // What the targets leave the platform: the hop with only the checks that must stay exact.
  const checkedToBaseline = ratios('checked-hop', 'baseline');
  const checkedToHop = ratios('checked-hop', 'grpc-hop');
  const toChecked = ratios('gateway', 'checked-hop');
  console.log(
    `checked-hop/baseline (the hop with the gateway's limiter and the service's live access statement, for reference): req/s ${fmt(median(checkedToBaseline), 2)} (${range(checkedToBaseline)}); ` +
      `checked-hop/grpc-hop ${fmt(median(checkedToHop), 2)} (${range(checkedToHop)}); gateway/checked-hop ${fmt(median(toChecked), 2)} (${range(toChecked)})`,
  );
  const clerkToBaseline = ratios('clerk', 'baseline');
  const clerkToGateway = ratios('clerk', 'gateway');
  console.log(
    `clerk/baseline (the same request by a user who is not a super user, holding tenant 1's ${clerkRoles} roles through two groups; for reference): ` +
      `req/s ${fmt(median(clerkToBaseline), 2)} (${range(clerkToBaseline)}); clerk/gateway ${fmt(median(clerkToGateway), 2)} (${range(clerkToGateway)})`,
  );
  console.log(
    `targets (median of the rounds' ratios): gateway/baseline >= ${fmt(TARGET_RPS_RATIO, 2)}: ${judge('gateway/baseline req/s', median(toBaseline) >= TARGET_RPS_RATIO)}; ` +
      `gateway/grpc-hop >= ${fmt(TARGET_HOP_RATIO, 2)}: ${judge('gateway/grpc-hop req/s', median(toHop) >= TARGET_HOP_RATIO)}; ` +
      `gateway/checked-hop >= ${fmt(TARGET_CHECKED_RATIO, 2)}: ${judge('gateway/checked-hop req/s', median(toChecked) >= TARGET_CHECKED_RATIO)} ` +
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

  // PostgreSQL's CPU is read from every `postgres` process this machine shows: none, or none of the
  // platform's own server, is no measurement (a sum of nothing would read as 0 µs and "met")
  const serverUnseen = await unseenServer(platform.databaseUrl);
  const cpuVerdicts = Object.entries(TARGET_CPU_US).map(([process, limit]) => {
    const spent = med('gateway', (f) => f.cpuPerRequest[process] ?? NaN);
    const absent = process === 'postgres' ? serverUnseen : undefined;
    if (absent !== undefined || !Number.isFinite(spent) || results.gateway.some((f) => !Number.isFinite(f.cpuPerRequest[process] ?? NaN))) {
      return `${process}: ${judge(`${process} CPU per request`, false)} (not measured: ${absent ?? `no ${process} process was visible in every round`})`;
    }
    return `${process} ${fmt(spent)} <= ${limit} µs: ${judge(`${process} CPU per request`, spent <= limit)}`;
  });
  console.log(`targets (CPU per gateway request, median of rounds): ${cpuVerdicts.join('; ')}`);

  // The same, round by round: a median of three hides a round that a busy minute skewed.
  console.log('\nCPU per request by round (µs, rounds in order):');
  for (const name of NAMES) {
    console.log(`${name}: ${processes.map((process) => `${process} ${results[name].map((f) => fmt(f.cpuPerRequest[process] ?? NaN)).join(', ')}`).join('; ')}`);
  }

  const logged = await platform.logSince(logMark);
  if (logged) console.log(`\n# the platform logged during the rounds (LOG_LEVEL=warn), last lines:\n${logged}`);
  if (platform.profileDir) console.log(`\n# CPU profiles: once this scenario has stopped, run: node bench/profile-summary.ts ${platform.profileDir}`);
});

/**
 * Why the `postgres` processes this machine shows are not the platform's server, or undefined when
 * they are: one of them must be a backend of the platform's database (pg_stat_activity's pid, as the
 * server sees it, is the pid /proc shows only when both share a PID namespace).
 */
async function unseenServer(databaseUrl: string): Promise<string | undefined> {
  const visible = commandCpuMs('postgres');
  if (visible.size === 0) return 'no postgres process is visible on this machine (the server runs elsewhere)';
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const backends = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database()');
    if (backends.rows.some((row) => visible.has(row.pid))) return undefined;
    return `none of the ${visible.size} postgres processes visible here is a backend of the platform's database (${backends.rows.length} backends): another server`;
  } finally {
    await client.end();
  }
}

/**
 * Scenario login-flood: logins per second through the gateway (`POST /api/auth/login` with the API
 * key and the right password, many connections, the Redis rate limiter and the login guard on with
 * limits that never refuse) against the raw rate of the work a login cannot avoid: `bcrypt.compare`
 * of that password against the admin's stored hash (the same cost, BCRYPT_ROUNDS default 10), in
 * one worker thread per core for the same duration. A login does one compare in core-svc (on
 * libuv's thread pool); everything else it does (HTTP, API key, limiter, login guard, gRPC, the
 * user and session queries, the session insert, the JWT) is overhead the ratio shows.
 *
 * During every flood the event loops of the gateway and core-svc are watched
 * (EVENT_LOOP_REPORT_DIR, libs/kit/src/log/event-loop.ts: SIGUSR2 at the start, SIGUSR1 at the end):
 * a login flood must not stall the other requests those processes serve.
 *
 * Both are measured in the same run, alternating (gateway, raw, then raw, gateway, …).
 *
 *   npm run bench -- login-flood
 *   node bench/login-flood.ts
 *   BENCH_DURATION=5 BENCH_ROUNDS=2 node bench/login-flood.ts
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3), BENCH_WARMUP
 * (s, 5), BENCH_CPU_PROF, TEST_DATABASE_URL / TEST_EMBEDDED_PG, REDIS_URL (as for branch-get).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import bcrypt from 'bcrypt';
import pg from 'pg';
import {
  BenchError,
  expectStatus,
  fmt,
  http,
  judge,
  measure,
  median,
  monotonicMicros,
  onCleanup,
  printTable,
  runScenario,
  settingsFromEnv,
  startBenchPlatform,
  untilQuiet,
  type CpuWatch,
  type Figures,
  type Target,
} from './lib.ts';
import { sessionCookieOf } from '@platform/kit/auth/request-token.ts';

/** Logins per second should reach this share of the raw bcrypt rate … */
const TARGET_RATE_RATIO = 0.9;
/** … with the event loops of the gateway and core-svc delayed at most this much (p99, ms). */
const TARGET_LOOP_P99_MS = 20;

interface WorkerJob {
  hash: string;
  password: string;
}
interface WorkerReply {
  compares: number;
  allMatched: boolean;
}

if (!isMainThread) {
  // A raw worker: on each message (a duration in ms), compares as often as it can for that long.
  const { hash, password } = workerData as WorkerJob;
  parentPort?.on('message', (durationMs: number) => {
    const end = performance.now() + durationMs;
    let compares = 0;
    let allMatched = true;
    while (performance.now() < end) {
      allMatched = bcrypt.compareSync(password, hash) && allMatched;
      compares++;
    }
    parentPort?.postMessage({ compares, allMatched } satisfies WorkerReply);
  });
} else {
  await runScenario('login-flood: POST /api/auth/login via the gateway vs raw bcrypt.compare on every core', main);
}

interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

interface GatewayRound {
  figures: Figures;
  loginsPerSec: number;
  loops: Record<'gateway' | 'core-svc', LoopDelay>;
}

async function main(): Promise<void> {
  const settings = settingsFromEnv();
  const cores = availableParallelism();
  console.log(
    `# ${settings.rounds} rounds x ${settings.duration} s per target, ${settings.connections} connections, ` +
      `${settings.warmup} s warm-up per target; raw: ${cores} worker threads (one per core)`,
  );

  const reportDir = await mkdtemp(join(tmpdir(), 'platform-bench-loops-'));
  onCleanup(() => rm(reportDir, { recursive: true, force: true }));
  const platform = await startBenchPlatform(process.env, { extraEnv: { EVENT_LOOP_REPORT_DIR: reportDir } });
  const pids = platform.platform.pids;

  // The admin's stored hash: the raw workers compare against exactly what core-svc compares against.
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  const stored = await db.query<{ password: string }>(`select password from core.user_info where user_code = 'admin'`).finally(() => db.end());
  const hash = stored.rows[0]?.password;
  if (!hash) throw new BenchError('no admin user in core.user_info');
  if (!(await bcrypt.compare(platform.adminPassword, hash))) throw new BenchError('the admin password does not match the stored hash');
  console.log(`# bcrypt: the admin's stored hash, cost ${bcrypt.getRounds(hash)} (BCRYPT_ROUNDS default)`);

  const target: Target = {
    url: `${platform.url}/api/auth/login`,
    method: 'POST',
    headers: { 'x-api-key': platform.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ userCode: 'admin', password: platform.adminPassword, languageCode: 'en' }),
  };
  const first = await expectStatus('POST /api/auth/login', http('POST', target.url, { headers: target.headers, body: JSON.parse(target.body ?? '{}') }));
  if (!sessionCookieOf(first.headers.getSetCookie())?.token) throw new BenchError('login answered 200 without a session cookie');
  console.log(`# login answers 200 with a session cookie: ${first.text}`);

  const workers = Array.from(
    { length: cores },
    () => new Worker(new URL(import.meta.url), { workerData: { hash, password: platform.adminPassword } satisfies WorkerJob }),
  );
  onCleanup(() => Promise.all(workers.map((worker) => worker.terminate())).then(() => undefined));
  const raw = async (seconds: number): Promise<number> => {
    const replies = await Promise.all(
      workers.map(
        (worker) =>
          new Promise<WorkerReply>((resolve, reject) => {
            worker.once('message', resolve);
            worker.once('error', reject);
            worker.postMessage(seconds * 1000);
          }),
      ),
    );
    if (!replies.every((reply) => reply.allMatched)) throw new BenchError('a raw bcrypt.compare did not match');
    return replies.reduce((sum, reply) => sum + reply.compares, 0) / seconds;
  };

  const cpu: CpuWatch = { gateway: pids.gateway, 'core-svc': pids['core-svc'], postgres: 'postgres', redis: 'redis-server' };
  const watched = { gateway: pids.gateway, 'core-svc': pids['core-svc'] } as const;
  const flood = async (seconds: number): Promise<GatewayRound> => {
    for (const pid of Object.values(watched)) process.kill(pid, 'SIGUSR2'); // a fresh event-loop measurement
    const figures = await measure(target, { duration: seconds, connections: settings.connections, cpu, label: 'gateway login' });
    const loops = await readLoopDelays(reportDir, watched);
    await untilQuiet(Object.values(pids)); // logins still queued when autocannon stopped
    return { figures, loginsPerSec: figures.requests / seconds, loops };
  };

  if (settings.warmup > 0) {
    const warm = await flood(settings.warmup);
    console.log(`# warm-up gateway ${fmt(warm.loginsPerSec, 1)} logins/s (discarded)`);
    console.log(`# warm-up raw     ${fmt(await raw(settings.warmup), 1)} compares/s (discarded)`);
  }

  const gateway: GatewayRound[] = [];
  const rawRates: number[] = [];
  const logMark = await platform.logMark();
  const measured = { from: monotonicMicros(), to: 0 };
  for (let round = 1; round <= settings.rounds; round++) {
    const order = round % 2 === 1 ? (['gateway', 'raw'] as const) : (['raw', 'gateway'] as const);
    for (const name of order) {
      if (name === 'raw') {
        const rate = await raw(settings.duration);
        rawRates.push(rate);
        console.log(`# round ${round} raw      ${fmt(rate, 1).padStart(6)} compares/s (${cores} threads)`);
      } else {
        const result = await flood(settings.duration);
        gateway.push(result);
        console.log(
          `# round ${round} gateway  ${fmt(result.loginsPerSec, 1).padStart(6)} logins/s  p50 ${fmt(result.figures.p50, 0)} ms  ` +
            `p99 ${fmt(result.figures.p99, 0)} ms  (${fmt(result.figures.requests)} logins, all 2xx); event loop p99: ` +
            `gateway ${fmt(result.loops.gateway.p99, 2)} ms, core-svc ${fmt(result.loops['core-svc'].p99, 2)} ms`,
        );
      }
    }
  }
  measured.to = monotonicMicros();
  if (platform.profileDir) {
    const { writeFile } = await import('node:fs/promises');
    const processes = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [pid, name]));
    await writeFile(join(platform.profileDir, 'bench-window.json'), JSON.stringify({ scenario: 'login-flood', ...measured, processes }, null, 2));
  }

  console.log('\nPer round:');
  printTable(
    ['round', 'logins/s', 'p50 ms', 'p99 ms', 'raw compares/s', 'ratio', 'gw loop p99 ms', 'core loop p99 ms'],
    gateway.map((g, i) => [
      String(i + 1),
      fmt(g.loginsPerSec, 1),
      fmt(g.figures.p50, 0),
      fmt(g.figures.p99, 0),
      fmt(rawRates[i] ?? NaN, 1),
      fmt(g.loginsPerSec / (rawRates[i] ?? NaN), 3),
      fmt(g.loops.gateway.p99, 2),
      fmt(g.loops['core-svc'].p99, 2),
    ]),
  );

  const logins = median(gateway.map((g) => g.loginsPerSec));
  const rawRate = median(rawRates);
  const ratio = logins / rawRate;
  const roundRatios = gateway.map((g, i) => g.loginsPerSec / (rawRates[i] ?? NaN));
  const loopP99 = (name: 'gateway' | 'core-svc') => median(gateway.map((g) => g.loops[name].p99));
  const loopWorst = (name: 'gateway' | 'core-svc') => Math.max(...gateway.map((g) => g.loops[name].p99));
  console.log(`\nMedian of ${settings.rounds} rounds (${settings.duration} s, ${settings.connections} connections):`);
  printTable(
    ['target', 'per second', 'event loop p99 ms (median, worst round)'],
    [
      [
        'gateway logins',
        fmt(logins, 1),
        `gateway ${fmt(loopP99('gateway'), 2)} (${fmt(loopWorst('gateway'), 2)}), core-svc ${fmt(loopP99('core-svc'), 2)} (${fmt(loopWorst('core-svc'), 2)})`,
      ],
      [`raw bcrypt.compare x${cores}`, fmt(rawRate, 1), ''],
    ],
  );
  // judged on the rounds' own ratios (each round's flood and raw run seconds apart), their median
  const roundRatio = median(roundRatios);
  console.log(
    `\nlogins/raw: ${fmt(roundRatio, 3)}, the median of the rounds' ratios (rounds ${roundRatios.map((r) => fmt(r, 3)).join(', ')}; ratio of the medians ${fmt(ratio, 3)})`,
  );
  const loopsMet = loopWorst('gateway') <= TARGET_LOOP_P99_MS && loopWorst('core-svc') <= TARGET_LOOP_P99_MS;
  console.log(
    `targets: logins/raw >= ${fmt(TARGET_RATE_RATIO, 2)}: ${judge('logins/raw', roundRatio >= TARGET_RATE_RATIO)}; ` +
      `event loop p99 <= ${TARGET_LOOP_P99_MS} ms in every round (gateway, core-svc): ${judge('login event loop p99', loopsMet)}`,
  );

  console.log('\nCPU per login (µs, median of rounds; "bench client" is autocannon in this process):');
  const processes = Object.keys(gateway[0]?.figures.cpuPerRequest ?? {});
  const values = processes.map((name) => median(gateway.map((g) => g.figures.cpuPerRequest[name] ?? NaN)));
  printTable(
    ['target', ...processes, 'total'],
    [['gateway login', ...values.map((v) => fmt(v)), fmt(values.reduce((sum, v) => sum + (Number.isFinite(v) ? v : 0), 0))]],
  );
  console.log(`(raw: ${fmt((cores * 1e6) / rawRate)} µs of CPU per compare on this machine)`);

  const logged = await platform.logSince(logMark);
  if (logged) console.log(`\n# the platform logged during the rounds (LOG_LEVEL=warn), last lines:\n${logged}`);
}

/**
 * Asks each process to write its event-loop delay (SIGUSR1) and reads `<dir>/<name>.json`, waiting
 * up to 2 s for a file written after the request.
 */
async function readLoopDelays<Name extends string>(dir: string, pids: Record<Name, number>): Promise<Record<Name, LoopDelay>> {
  const delays = {} as Record<Name, LoopDelay>;
  for (const [name, pid] of Object.entries(pids) as [Name, number][]) {
    const file = join(dir, `${name}.json`);
    rmSync(file, { force: true });
    process.kill(pid, 'SIGUSR1');
    const deadline = Date.now() + 2000;
    for (;;) {
      // written with one writeFileSync: retry until it is there and complete
      const report = existsSync(file) ? parseOrUndefined(readFileSync(file, 'utf8')) : undefined;
      if (report) {
        delays[name] = report as LoopDelay;
        break;
      }
      if (Date.now() > deadline) throw new BenchError(`${name} wrote no event-loop report to ${file} (EVENT_LOOP_REPORT_DIR)`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return delays;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

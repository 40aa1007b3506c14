/**
 * Scenario outbox-cost: what writing each change's event into the outbox costs the create path.
 * POST /api/branch (a new branch code per request) closed loop with autocannon, three configurations
 * in the same run, alternating over BENCH_ROUNDS rounds (the order rotated each round):
 *
 * - **off**: a platform with OUTBOX_DISABLED=true (recordEvent writes nothing; the baseline),
 * - **on**: a second platform, the outbox on and no webhook subscription,
 * - **on+subscriber**: the same platform with an active subscription for `*` whose receiver (a
 *   node:http server in this process, on loopback) answers 200, so the dispatcher fans out and
 *   delivers while the creates run; the subscription is made before the run and deleted after it.
 *
 * Both platforms run under APP_ENV=development (loopback webhook targets allowed) on fresh databases
 * of the same server. Targets, on the median of the rounds' own ratios: on/off ≥ 0.90 and
 * on+subscriber/off ≥ 0.90 (the requirement: the outbox costs create throughput at most 10 %, with
 * and without subscribers). A platform without webhook subscriptions (404) still measures off and on
 * and judges on/off, then fails naming what it could not measure.
 *
 * Each run is checked against the database before it counts: every create made its branch, "off"
 * wrote no event, "on" and "on+subscriber" exactly one `branch.created` per branch made, and the
 * subscriber received every one of those; a run that fails a check fails the scenario (what it
 * measured is not the configuration it names).
 *
 *   npm run bench -- outbox-cost
 *   BENCH_DURATION=3 BENCH_ROUNDS=1 BENCH_WARMUP=2 node bench/outbox-cost.ts   (a quick check)
 */
import pg from 'pg';
import {
  BenchError,
  databaseBackends,
  fmt,
  judge,
  login,
  measure,
  median,
  onCleanup,
  printTable,
  runScenario,
  settingsFromEnv,
  startBenchPlatform,
  untilQuiet,
  type BenchPlatform,
  type CpuWatch,
  type Figures,
  type Target,
} from './lib.ts';
import { BRANCH_TENANT, branchCreate, startReceiver, subscribe, unsubscribe, WebhooksMissing, type Receiver } from './lib/webhooks.ts';

/** Least share of the off configuration's create throughput each outbox configuration keeps. */
const TARGET_RATIO = 0.9;
const NAMES = ['off', 'on', 'on+subscriber'] as const;
type Name = (typeof NAMES)[number];
/** How long the deliveries of a subscriber run may take to arrive after it (a backlog drains). */
const DRAIN_MS = 180_000;

await runScenario('outbox-cost: POST /api/branch closed loop, outbox off / on / on with a subscriber', async () => {
  const settings = settingsFromEnv();
  console.log(
    `# ${settings.rounds} rounds x ${settings.duration} s per configuration, ${settings.connections} connections, ${settings.warmup} s warm-up per configuration`,
  );
  const receiver = await startReceiver();
  const off = await startBenchPlatform(process.env, { extraEnv: { APP_ENV: 'development', OUTBOX_DISABLED: 'true' } });
  const on = await startBenchPlatform(process.env, { extraEnv: { APP_ENV: 'development' } });
  const tokens = { off: await login(off), on: await login(on) };
  const creates = { off: await branchCreate(off, tokens.off), on: await branchCreate(on, tokens.on) };

  // Whether the platform has webhook subscriptions at all: without them the subscriber runs are
  // left out and the scenario fails at the end, after measuring what it can.
  let missing: string | undefined;
  try {
    await unsubscribe(on, tokens.on, await subscribe(on, tokens.on, BRANCH_TENANT, receiver.url, ['*']));
  } catch (error) {
    if (!(error instanceof WebhooksMissing)) throw error;
    missing = error.message;
    console.log(`# on+subscriber: not measured: ${missing}`);
  }
  const names = NAMES.filter((name) => name !== 'on+subscriber' || missing === undefined);
  const allPids = [...Object.values(off.platform.pids), ...Object.values(on.platform.pids)];
  const platformOf = (name: Name): BenchPlatform => (name === 'off' ? off : on);
  const targetOf = (name: Name): Target => (name === 'off' ? creates.off : creates.on);
  const cpuOf = (platform: BenchPlatform): CpuWatch => ({
    gateway: platform.platform.pids.gateway,
    'bpm-svc': platform.platform.pids['bpm-svc'],
    'core-svc': platform.platform.pids['core-svc'],
    // the backends of this platform's database only: the other platform's (and anything else the
    // server serves meanwhile) are not this configuration's cost
    postgres: databaseBackends(new URL(platform.databaseUrl).pathname.slice(1)),
  });

  const databases = { off: await writeCounter(off), on: await writeCounter(on) };
  const databaseOf = (name: Name): WriteCounter => (name === 'off' ? databases.off : databases.on);

  const delivered: number[] = [];
  const run = async (name: Name, duration: number): Promise<Figures> => {
    const platform = platformOf(name);
    const subscription = name === 'on+subscriber' ? await subscribe(on, tokens.on, BRANCH_TENANT, receiver.url, ['*']) : undefined;
    receiver.reset();
    const before = await databaseOf(name).count();
    const figures = await measure(targetOf(name), { duration, connections: settings.connections, cpu: cpuOf(platform), label: name });
    // what a run left queued (the dispatcher's fan-out among it) is not counted to the next
    await untilQuiet(allPids, DRAIN_MS);
    const after = await databaseOf(name).count();
    const branches = after.branches - before.branches;
    const events = after.events - before.events;
    if (branches < figures.requests) throw new BenchError(`${name}: ${figures.requests} creates answered 2xx, ${branches} branches were made`);
    const expected = name === 'off' ? 0 : branches;
    if (events !== expected)
      throw new BenchError(`${name}: ${events} branch.created events written in the outbox for ${branches} branches made, expected ${expected}`);
    let checked = `${fmt(branches)} branches made, ${fmt(events)} branch.created events written`;
    if (subscription !== undefined) {
      const arrived = await untilAllArrived(receiver, events);
      checked += `, ${fmt(arrived)} received by the subscriber`;
      delivered.push(arrived / events);
      await unsubscribe(on, tokens.on, subscription);
      await untilQuiet(allPids, DRAIN_MS);
      if (arrived !== events)
        throw new BenchError(`${name}: the subscriber received ${arrived} of the ${events} branch.created events within ${DRAIN_MS / 1000} s`);
    }
    console.log(`# ${name}: checked in the database: ${checked}`);
    return figures;
  };

  if (settings.warmup > 0) {
    for (const name of names) {
      const warm = await run(name, settings.warmup);
      console.log(`# warm-up ${name.padEnd(14)} ${fmt(warm.requestsPerSec, 0)} creates/s (discarded)`);
    }
  }
  const results: Record<Name, Figures[]> = { off: [], on: [], 'on+subscriber': [] };
  for (let round = 1; round <= settings.rounds; round++) {
    const shift = (round - 1) % names.length;
    const order = [...names.slice(shift), ...names.slice(0, shift)];
    for (const name of order) {
      const figures = await run(name, settings.duration);
      results[name].push(figures);
      console.log(
        `# round ${round} ${name.padEnd(13)} ${fmt(figures.requestsPerSec, 0).padStart(6)} creates/s  p50 ${fmt(figures.p50, 1)} ms  p99 ${fmt(figures.p99, 1)} ms` +
          (name === 'on+subscriber' ? `  delivered ${fmt((delivered.at(-1) ?? NaN) * 100, 1)} % of its events` : ''),
      );
    }
  }

  const ratios = (of: Name): number[] => results[of].map((figures, i) => figures.requestsPerSec / (results.off[i]?.requestsPerSec ?? NaN));
  console.log(`\nPer round (creates/s; ratios to off in the same round):`);
  printTable(
    ['round', ...names, ...names.filter((name) => name !== 'off').map((name) => `${name}/off`)],
    results.off.map((_, i) => [
      String(i + 1),
      ...names.map((name) => fmt(results[name][i]?.requestsPerSec ?? NaN, 0)),
      ...names.filter((name) => name !== 'off').map((name) => fmt(ratios(name)[i] ?? NaN, 3)),
    ]),
  );
  console.log("\nCPU per create (µs, median of rounds; postgres is the backends of the platform's database):");
  const processes = ['gateway', 'bpm-svc', 'core-svc', 'postgres', 'bench client'];
  printTable(
    ['configuration', ...processes],
    names.map((name) => [name, ...processes.map((process) => fmt(median(results[name].map((figures) => figures.cpuPerRequest[process] ?? NaN)), 0))]),
  );
  if (delivered.length > 0) {
    console.log(`on+subscriber: events delivered by ${DRAIN_MS / 1000} s after each run: ${delivered.map((share) => `${fmt(share * 100, 1)} %`).join(', ')}`);
  }

  const verdicts = names
    .filter((name) => name !== 'off')
    .map((name) => {
      const ratio = median(ratios(name));
      return `${name}/off ${fmt(ratio, 3)} >= ${fmt(TARGET_RATIO, 2)}: ${judge(`${name}/off creates/s`, ratio >= TARGET_RATIO)}`;
    });
  console.log(`targets (median of the rounds' ratios): ${verdicts.join('; ')}`);
  if (missing !== undefined) throw new BenchError(`on+subscriber/off not measured: ${missing}`);
});

/**
 * Waits until `expected` branch.created events have arrived at `receiver`, or none has arrived for
 * 5 s (at most DRAIN_MS in all); how many arrived. (The `*` subscription hears its own
 * webhook-subscription events too; they are not counted.)
 */
async function untilAllArrived(receiver: Receiver, expected: number): Promise<number> {
  const started = performance.now();
  const deadline = Date.now() + DRAIN_MS;
  const arrived = (): number => [...receiver.arrivals.values()].filter((arrival) => arrival.type === 'branch.created').length;
  // idle counts from the later of the last arrival and now: the first may still be on its way
  while (arrived() < expected && Math.min(receiver.idleMs(), performance.now() - started) < 5_000 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return arrived();
}

/** The branches and `branch.created` outbox events of one platform's database, counted between runs. */
interface WriteCounter {
  count(): Promise<{ branches: number; events: number }>;
}

/** A connection to `platform`'s database that counts its branches and their events (closed at the end). */
async function writeCounter(platform: BenchPlatform): Promise<WriteCounter> {
  const client = new pg.Client({ connectionString: platform.databaseUrl });
  await client.connect();
  onCleanup(() => client.end().catch(() => undefined));
  return {
    count: async () => {
      const { rows } = await client.query<{ branches: string; events: string }>(
        `select (select count(*) from bpm.branch) as branches, (select count(*) from bpm.bpm_outbox where type = 'branch.created') as events`,
      );
      return { branches: Number(rows[0]!.branches), events: Number(rows[0]!.events) };
    },
  };
}

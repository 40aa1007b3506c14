/**
 * Scenario tracing-cost: what the OpenTelemetry tracing (docs/adr/0092-tracing-with-opentelemetry-on-only.md) costs a
 * request, off and on. `GET /api/business-partner/{id}` through the gateway (the whole chain: the
 * Redis limiter, the JWT, one gRPC call to bpm-svc, its live-access read and the row), closed loop
 * with autocannon, against three platforms started in the same run, alternating over BENCH_ROUNDS
 * rounds (the order rotated each round):
 *
 * - **no-hook**: processes started without the telemetry `--import` at all (the baseline),
 * - **off**: started with it, as every deployment is, and OTEL_EXPORTER_OTLP_ENDPOINT unset,
 * - **on**: tracing on, every span exported (the SDK's default sampler and batch processor, OTLP
 *   http/protobuf) to a receiver on loopback in this process, which answers every export 200.
 *
 * Printed: requests/s and CPU µs per request of the gateway, bpm-svc, core-svc (and PostgreSQL,
 * every postgres process of the machine, and this process, which runs the receiver), each the
 * median of the rounds. Target, on the median of the rounds' own ratios of the three processes' CPU
 * per request together: off/no-hook ≤ 1.03 ("tracing off: CPU per request within 3 % of no hook").
 * on/no-hook is reported, with no target.
 *
 *   npm run bench -- tracing-cost                                   (about 2 minutes)
 *   BENCH_DURATION=3 BENCH_ROUNDS=1 BENCH_WARMUP=1 node bench/tracing-cost.ts   (a quick check)
 *
 * Defaults here: BENCH_DURATION 8, BENCH_WARMUP 3 (the other settings as every scenario's).
 */
import { startOtlpSink } from '../test/helpers/otlp-sink.ts';
import { benchPartner } from './lib/partner.ts';
import {
  expectStatus,
  fmt,
  http,
  judge,
  login,
  measure,
  median,
  onCleanup,
  printTable,
  runScenario,
  settingsFromEnv,
  startBenchPlatform,
  type BenchPlatform,
  type CpuWatch,
  type Figures,
  type Target,
} from './lib.ts';

/** Most CPU per request the processes started with the register module but tracing off may spend, as a share of no-hook's. */
const TARGET_OFF_RATIO = 1.03;
const NAMES = ['no-hook', 'off', 'on'] as const;
type Name = (typeof NAMES)[number];
const PROCESSES = ['gateway', 'bpm-svc', 'core-svc'] as const;

await runScenario('tracing-cost: GET /api/business-partner/{id}, no telemetry hook / tracing off / tracing on', async () => {
  const settings = settingsFromEnv({ BENCH_DURATION: '8', BENCH_WARMUP: '3', ...process.env });
  console.log(
    `# ${settings.rounds} rounds x ${settings.duration} s per platform, ${settings.connections} connections, ${settings.warmup} s warm-up per platform`,
  );
  const sink = await startOtlpSink();
  onCleanup(() => sink.close());
  const platforms: Record<Name, BenchPlatform> = {
    'no-hook': await startBenchPlatform(process.env, { telemetryRegister: false }),
    off: await startBenchPlatform(process.env),
    on: await startBenchPlatform(process.env, { extraEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } }),
  };
  const targets = {} as Record<Name, Target>;
  for (const name of NAMES) {
    const platform = platforms[name];
    const token = await login(platform);
    const id = await benchPartner(platform, token, 1);
    targets[name] = { url: `${platform.url}/api/business-partner/${id}`, headers: { authorization: `Bearer ${token}` } };
    await expectStatus(`GET ${name}`, http('GET', targets[name].url, { headers: targets[name].headers }));
  }
  const cpuOf = (platform: BenchPlatform): CpuWatch => ({
    gateway: platform.platform.pids.gateway,
    'bpm-svc': platform.platform.pids['bpm-svc'],
    'core-svc': platform.platform.pids['core-svc'],
    postgres: 'postgres',
  });
  const run = (name: Name, duration: number): Promise<Figures> =>
    measure(targets[name], { duration, connections: settings.connections, cpu: cpuOf(platforms[name]), label: name });

  if (settings.warmup > 0) {
    for (const name of NAMES) console.log(`# warm-up ${name.padEnd(8)} ${fmt((await run(name, settings.warmup)).requestsPerSec, 0)} req/s (discarded)`);
  }
  const exportsBefore = sink.exports;
  const results: Record<Name, Figures[]> = { 'no-hook': [], off: [], on: [] };
  for (let round = 1; round <= settings.rounds; round++) {
    const shift = (round - 1) % NAMES.length;
    for (const name of [...NAMES.slice(shift), ...NAMES.slice(0, shift)]) {
      const figures = await run(name, settings.duration);
      results[name].push(figures);
      console.log(
        `# round ${round} ${name.padEnd(8)} ${fmt(figures.requestsPerSec, 0).padStart(6)} req/s  p50 ${fmt(figures.p50, 2)} ms  p99 ${fmt(figures.p99, 2)} ms  ` +
          `CPU/request ${PROCESSES.map((process) => `${process} ${fmt(figures.cpuPerRequest[process] ?? NaN, 0)}`).join(', ')} µs`,
      );
    }
  }
  const exported = sink.exports - exportsBefore;

  const platformCpu = (figures: Figures): number => PROCESSES.reduce((sum, process) => sum + (figures.cpuPerRequest[process] ?? NaN), 0);
  const ratios = (of: Name, by: (figures: Figures) => number): number[] => results[of].map((figures, i) => by(figures) / by(results['no-hook'][i] as Figures));
  console.log('\nPer round (CPU µs per request of gateway + bpm-svc + core-svc; ratios to no-hook in the same round):');
  printTable(
    ['round', ...NAMES, 'off/no-hook', 'on/no-hook'],
    results['no-hook'].map((_, i) => [
      String(i + 1),
      ...NAMES.map((name) => fmt(platformCpu(results[name][i] as Figures), 0)),
      fmt(ratios('off', platformCpu)[i] ?? NaN, 3),
      fmt(ratios('on', platformCpu)[i] ?? NaN, 3),
    ]),
  );
  console.log('\nMedians of the rounds (CPU µs per request; postgres is every backend of the server; bench client runs the OTLP receiver):');
  const columns = [...PROCESSES, 'postgres', 'bench client'];
  printTable(
    ['platform', 'req/s', ...columns],
    NAMES.map((name) => [
      name,
      fmt(median(results[name].map((figures) => figures.requestsPerSec)), 0),
      ...columns.map((process) => fmt(median(results[name].map((figures) => figures.cpuPerRequest[process] ?? NaN)), 0)),
    ]),
  );
  const offRatio = median(ratios('off', platformCpu));
  const onRatio = median(ratios('on', platformCpu));
  const rpsOn = median(ratios('on', (figures) => figures.requestsPerSec));
  const rpsOff = median(ratios('off', (figures) => figures.requestsPerSec));
  console.log(`on: ${fmt(exported)} OTLP exports received during the measured runs`);
  console.log(`requests/s: off/no-hook ${fmt(rpsOff, 3)}, on/no-hook ${fmt(rpsOn, 3)}`);
  console.log(`reported: tracing on: CPU per request on/no-hook ${fmt(onRatio, 3)} (no target)`);
  console.log(
    `target: tracing off: CPU per request within 3 % of no hook: off/no-hook ${fmt(offRatio, 3)} <= ${fmt(TARGET_OFF_RATIO, 2)}: ${judge('tracing off: CPU per request within 3 % of no hook', offRatio <= TARGET_OFF_RATIO)}`,
  );
});

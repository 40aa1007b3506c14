/**
 * Scenario branch-get-pooled: `GET /api/branch/{id}` (as bench/branch-get.ts, the admin's JWT)
 * through a platform whose services reach PostgreSQL through PgBouncer in transaction mode
 * (DATABASE_POOLING=transaction: the hot reads unnamed; docs/adr/0146-through-a-transaction-pooler.md)
 * against the same request through a platform that reaches it directly (named prepared statements),
 * both on the same database with the same secrets, measured in the same run, alternating.
 * PgBouncer is Debian's pgbouncer 1.18 (test/helpers/pgbouncer.ts: installed when missing, as root;
 * on 127.0.0.1, `default_pool_size` 20, one process).
 * Target: pooled ≥ 0.9 × direct in requests/s (closed loop), judged on the median of the rounds' own ratios.
 *
 *   npm run bench -- branch-get-pooled
 *   BENCH_DURATION=3 BENCH_ROUNDS=1 BENCH_WARMUP=1 node bench/branch-get-pooled.ts
 *
 * Env: as bench/branch-get.ts.
 */
import { join } from 'node:path';
import { startPlatform } from '../scripts/lib/processes.ts';
import { ensurePgBouncer, startPgBouncer } from '../test/helpers/pgbouncer.ts';
import { startBranchTargets } from './branch-targets.ts';
import {
  BenchError,
  expectStatus,
  http,
  measure,
  onCleanup,
  pairedRounds,
  runScenario,
  settingsFromEnv,
  type CpuWatch,
  type Figures,
  type Target,
} from './lib.ts';

/** The pooled platform's requests/s at least this share of the direct one's. */
const TARGET_RATIO = 0.9;
const NAMES = ['direct', 'pooled'] as const;
type Name = (typeof NAMES)[number];

/** The settings startPlatform fills with free ports: the pooled platform picks its own. */
const PORTS = [
  'GATEWAY_PORT',
  'CORE_GRPC_ADDR',
  'BPM_GRPC_ADDR',
  'DMS_GRPC_ADDR',
  'DMS_HTTP_ADDR',
  'CORE_METRICS_PORT',
  'BPM_METRICS_PORT',
  'DMS_METRICS_PORT',
];

await runScenario('branch-get-pooled: GET /api/branch/{id} through PgBouncer in transaction mode vs directly', async () => {
  const settings = settingsFromEnv();
  console.log(`# ${settings.rounds} rounds x ${settings.duration} s per target, ${settings.connections} connections, ${settings.warmup} s warm-up per target`);
  await ensurePgBouncer();
  const { platform, targets, record } = await startBranchTargets();
  // the services' serving role (DATABASE_URL) let in beside the owner, who migrates
  const serving = platform.platform.env.DATABASE_URL ?? platform.databaseUrl;
  const bouncer = await startPgBouncer(platform.databaseUrl, { alsoFor: [serving] });
  onCleanup(() => bouncer.stop());
  // the direct platform's services, their ports left to pick, their database through PgBouncer
  const env = Object.fromEntries(Object.entries(platform.platform.env).filter(([name]) => !PORTS.includes(name)));
  const pooledPlatform = await startPlatform({
    env: { ...env, DATABASE_URL: bouncer.urlOf(serving), DATABASE_OWNER_URL: bouncer.urlOf(platform.databaseUrl), DATABASE_POOLING: 'transaction' },
    ports: 'free',
    log: { file: join(platform.logFile, '..', 'pooled.log') },
    execArgv: platform.execArgv,
  });
  onCleanup(() => pooledPlatform.stop());
  console.log(`# pooled platform: ${pooledPlatform.url}, its services through PgBouncer on 127.0.0.1:${bouncer.port} (DATABASE_POOLING=transaction)`);
  const path = new URL(targets.gateway.url).pathname;
  const chosen: Record<Name, Target> = { direct: targets.gateway, pooled: { url: `${pooledPlatform.url}${path}`, headers: targets.gateway.headers } };
  const viaPooled = await expectStatus('GET (pooled)', http('GET', chosen.pooled.url, { headers: chosen.pooled.headers }));
  if (viaPooled.text !== record) throw new BenchError(`the pooled platform answers another record:\n  pooled: ${viaPooled.text}\n  direct: ${record}`);
  console.log('# both platforms answer 200 with the same record');

  const cpuOf = (pids: Record<string, number>): CpuWatch => ({
    gateway: pids.gateway!,
    'bpm-svc': pids['bpm-svc']!,
    postgres: 'postgres',
    pgbouncer: 'pgbouncer',
  });
  const cpu: Record<Name, CpuWatch> = { direct: cpuOf(platform.platform.pids), pooled: cpuOf(pooledPlatform.pids) };
  const run = (name: Name, duration: number): Promise<Figures> =>
    measure(chosen[name], { duration, connections: settings.connections, cpu: cpu[name], label: name });
  await pairedRounds({ names: NAMES, settings, run, target: TARGET_RATIO, label: 'branch-get pooled/direct req/s' });
});

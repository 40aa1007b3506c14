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
import { ensurePgBouncer, startPgBouncer } from '../test/helpers/pgbouncer.ts';
import { platformBeside, startBranchTargets } from './branch-targets.ts';
import { measure, onCleanup, pairedRounds, runScenario, settingsFromEnv, type CpuWatch, type Figures, type Target } from './lib.ts';

/** The pooled platform's requests/s at least this share of the direct one's. */
const TARGET_RATIO = 0.9;
const NAMES = ['direct', 'pooled'] as const;
type Name = (typeof NAMES)[number];

await runScenario('branch-get-pooled: GET /api/branch/{id} through PgBouncer in transaction mode vs directly', async () => {
  const settings = settingsFromEnv();
  console.log(`# ${settings.rounds} rounds x ${settings.duration} s per target, ${settings.connections} connections, ${settings.warmup} s warm-up per target`);
  await ensurePgBouncer();
  const branch = await startBranchTargets();
  const { platform, targets } = branch;
  // the services' serving role (DATABASE_URL) let in beside the owner, who migrates
  const serving = platform.platform.env.DATABASE_URL ?? platform.databaseUrl;
  const bouncer = await startPgBouncer(platform.databaseUrl, { alsoFor: [serving] });
  onCleanup(() => bouncer.stop());
  // the direct platform's services, their database through PgBouncer
  const pooled = await platformBeside(
    branch,
    'pooled',
    { DATABASE_URL: bouncer.urlOf(serving), DATABASE_OWNER_URL: bouncer.urlOf(platform.databaseUrl), DATABASE_POOLING: 'transaction' },
    targets.gateway,
  );
  console.log(`# pooled platform: ${pooled.platform.url}, its services through PgBouncer on 127.0.0.1:${bouncer.port} (DATABASE_POOLING=transaction)`);
  const chosen: Record<Name, Target> = { direct: targets.gateway, pooled: pooled.target };
  console.log('# both platforms answer 200 with the same record');

  const cpuOf = (pids: Record<string, number>): CpuWatch => ({
    gateway: pids.gateway!,
    'bpm-svc': pids['bpm-svc']!,
    postgres: 'postgres',
    pgbouncer: 'pgbouncer',
  });
  const cpu: Record<Name, CpuWatch> = { direct: cpuOf(platform.platform.pids), pooled: cpuOf(pooled.platform.pids) };
  const run = (name: Name, duration: number): Promise<Figures> =>
    measure(chosen[name], { duration, connections: settings.connections, cpu: cpu[name], label: name });
  await pairedRounds({ names: NAMES, settings, run, target: TARGET_RATIO, label: 'branch-get pooled/direct req/s' });
});

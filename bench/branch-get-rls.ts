/**
 * Scenario branch-get-rls: `GET /api/branch/{id}` (as bench/branch-get.ts, a clerk's JWT: the walled path) through
 * the platform as it runs, its services serving as a role the row-level security policies apply to
 * and scoping each transaction (docs/adr/0151-row-level-security-the-second-wall.md), against the
 * same request through a platform without the wall: its services serving as the tables' owner,
 * which the policies do not apply to, and scoping nothing (DATABASE_ROW_SECURITY=off). Both on the
 * same database with the same secrets, measured in the same run, alternating.
 * Target: on ≥ 0.95 × off in requests/s (closed loop), judged on the median of the rounds' own ratios.
 *
 *   npm run bench -- branch-get-rls
 *   BENCH_DURATION=3 BENCH_ROUNDS=1 BENCH_WARMUP=1 node bench/branch-get-rls.ts
 *
 * Env: as bench/branch-get.ts.
 */
import { platformBeside, startBranchTargets } from './branch-targets.ts';
import { measure, pairedRounds, runScenario, settingsFromEnv, withoutTheWall, type CpuWatch, type Figures, type Target } from './lib.ts';

/** The walled platform's requests/s at least this share of the unwalled one's. */
const TARGET_RATIO = 0.95;
const NAMES = ['off', 'on'] as const;
type Name = (typeof NAMES)[number];

await runScenario('branch-get-rls: GET /api/branch/{id} with row-level security on vs off', async () => {
  const settings = settingsFromEnv();
  console.log(`# ${settings.rounds} rounds x ${settings.duration} s per target, ${settings.connections} connections, ${settings.warmup} s warm-up per target`);
  const branch = await startBranchTargets();
  const { platform } = branch;
  // a clerk's request: the walled path (a super user's scope is every tenant)
  const off = await platformBeside(branch, 'rls-off', withoutTheWall(platform), branch.clerk);
  console.log(
    `# the platform without the wall: ${off.platform.url}, its services as the owner, DATABASE_ROW_SECURITY=off; both answer a clerk's GET with the same record`,
  );
  const chosen: Record<Name, Target> = { on: branch.clerk, off: off.target };

  const cpuOf = (pids: Record<string, number>): CpuWatch => ({ gateway: pids.gateway!, 'bpm-svc': pids['bpm-svc']!, postgres: 'postgres' });
  const cpu: Record<Name, CpuWatch> = { on: cpuOf(platform.platform.pids), off: cpuOf(off.platform.pids) };
  const run = (name: Name, duration: number): Promise<Figures> =>
    measure(chosen[name], { duration, connections: settings.connections, cpu: cpu[name], label: name });
  await pairedRounds({ names: NAMES, settings, run, target: TARGET_RATIO, label: 'branch-get rls on/off req/s' });
});

/**
 * Scenario start-up: `npm start`, from the command to the first 200 of GET /actuator/health (every
 * process answers, the database too), warm and fresh. Health is asked from the moment the launcher
 * prints "Platform ready", every 25 ms until it is UP.
 *
 * - Fresh, the closest honest stand-in for a fresh clone after `npm ci`: a copy of this checkout's
 *   files (tracked and untracked, not the ignored ones: no `.data/`, no `gateway/console/dist/`)
 *   in a temporary folder, whose node_modules links every installed package of this checkout (the
 *   workspaces' own links point into the copy, and `node_modules/.cache` starts empty, as `npm ci`
 *   leaves it). `npm start` there builds the console, initialises the embedded PostgreSQL, creates
 *   the secrets, migrates every schema and makes the first admin. What it does not count: `npm ci`
 *   itself, and a cold file-system cache (the files were just copied).
 * - Warm: `npm start` again in the same copy, on the data it left (the second start of a day).
 *
 * Each round removes the copy's `.data/`, `gateway/console/dist/` and `node_modules/.cache/`, starts
 * fresh, stops, and starts warm; the platform runs on free ports with `npm start`'s defaults
 * otherwise (embedded PostgreSQL, in-memory limiter, APP_ENV development). Printed per run: when
 * each step was reached (milliseconds from the command), from the launcher's and the processes' own
 * lines: the console build, PostgreSQL up, each process listening, "Platform ready", healthy.
 * Targets (the median of the rounds): warm ≤ 3 s, fresh ≤ 8 s.
 *
 *   npm run bench -- start-up
 *   BENCH_ROUNDS=1 node bench/start-up.ts
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../scripts/lib/os-probes.ts';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';
import { BenchError, fmt, judge, median, onCleanup, printTable, processTreeCpuMs, runScenario, settingsFromEnv } from './lib.ts';

const WARM_TARGET_MS = 3_000;
const FRESH_TARGET_MS = 8_000;
/** Longest a start may take before the scenario gives up on it. */
const START_LIMIT_MS = 120_000;
/** The root package's workspaces, each with the name its package.json gives it (`@platform/…`). */
const WORKSPACES = (JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces.map((dir) => ({
  dir,
  name: (JSON.parse(readFileSync(join(ROOT_DIR, dir, 'package.json'), 'utf8')) as { name: string }).name,
}));

/** The steps of a start, each found by the first line that matches it, in the order printed. */
const STEPS: readonly { label: string; line: RegExp }[] = [
  { label: 'console built', line: /^\[start\]\s+console built in/ },
  { label: 'PostgreSQL up', line: /^\[start\]\s+starting (?!embedded)/ },
  { label: 'core-svc', line: /^\[core-svc\]\s.*"msg":"listening"/ },
  { label: 'bpm-svc', line: /^\[bpm-svc\]\s.*"msg":"listening"/ },
  { label: 'dms-svc', line: /^\[dms-svc\]\s.*"msg":"listening"/ },
  { label: 'gateway', line: /^\[gateway\]\s.*"msg":"listening"/ },
  { label: 'ready', line: /^Platform ready/ },
];

interface Run {
  kind: 'fresh' | 'warm';
  /** ms from the command to the first healthy answer. */
  healthyMs: number;
  /** CPU ms `npm start` and every process under it (PostgreSQL included) had used by then. */
  cpuMs: number;
  /** ms from the command to each step's line, when it came. */
  steps: Map<string, number>;
}

/**
 * A copy of the checkout's files (git's tracked and untracked ones, not the ignored) with a
 * node_modules of links to the installed packages; the workspaces' links name the copy's folders.
 */
function freshCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-start-up-'));
  // PostgreSQL runs as `postgres` when we are root: it must be able to enter the copy
  chmodSync(dir, 0o711);
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT_DIR, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && !file.split('/').includes('node_modules') && existsSync(join(ROOT_DIR, file)));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT_DIR, file), join(dir, file));
  }
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@platform'), { recursive: true });
  for (const entry of readdirSync(join(ROOT_DIR, 'node_modules'))) {
    if (entry === '@platform' || entry === '.cache' || entry === '.package-lock.json') continue;
    symlinkSync(join(ROOT_DIR, 'node_modules', entry), join(modules, entry));
  }
  for (const workspace of WORKSPACES) {
    const link = join(modules, workspace.name);
    symlinkSync(relative(dirname(link), join(dir, workspace.dir)), link);
    const own = join(ROOT_DIR, workspace.dir, 'node_modules');
    if (existsSync(own)) symlinkSync(own, join(dir, workspace.dir, 'node_modules'));
  }
  return dir;
}

/** `npm start` in `dir` on free ports; resolves when GET /actuator/health first answers 200. */
async function timeStart(kind: Run['kind'], dir: string, env: NodeJS.ProcessEnv, gatewayPort: number, log: string[]): Promise<Run> {
  const started = performance.now();
  const npm = spawn(process.env.npm_execpath ? process.execPath : 'npm', [...(process.env.npm_execpath ? [process.env.npm_execpath] : []), 'start'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const closed = new Promise<void>((r) => npm.once('close', () => r()));
  const stopThis = (): Promise<void> => stopStart(npm, closed);
  onCleanup(stopThis);
  const steps = new Map<string, number>();
  for (const stream of [npm.stdout, npm.stderr]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      log.push(line);
      const at = performance.now() - started;
      for (const step of STEPS) if (!steps.has(step.label) && step.line.test(line)) steps.set(step.label, at);
    });
  }
  let healthyMs: number | undefined;
  let cpuMs = NaN;
  while (healthyMs === undefined) {
    if (npm.exitCode !== null) throw new BenchError(`${kind} start: npm start exited with ${npm.exitCode}:\n${log.slice(-20).join('\n')}`);
    if (performance.now() - started > START_LIMIT_MS) throw new BenchError(`${kind} start: not healthy within ${START_LIMIT_MS / 1000} s`);
    // asked once the launcher says ready, as a user would: asked earlier, the gateway's calls to a
    // service not up yet put its channel into grpc-js's reconnect backoff, which this would time
    const status = !steps.has('ready')
      ? 0
      : await fetch(`http://127.0.0.1:${gatewayPort}/actuator/health`).then(
          (res) => res.arrayBuffer().then(() => res.status),
          () => 0,
        );
    if (status === 200) {
      healthyMs = performance.now() - started;
      cpuMs = npm.pid === undefined ? NaN : processTreeCpuMs(npm.pid);
    } else await new Promise((r) => setTimeout(r, 25));
  }
  await stopThis();
  return { kind, healthyMs, cpuMs, steps };
}

/**
 * SIGTERM to `npm start`'s process group (npm, the launcher), as Ctrl-C would: the launcher stops
 * its children and PostgreSQL. Resolves once `closed` does: the launcher's output has closed, so it
 * has exited (npm may exit before it).
 */
async function stopStart(npm: ChildProcess, closed: Promise<void>): Promise<void> {
  try {
    if (npm.pid !== undefined) process.kill(-npm.pid, 'SIGTERM');
  } catch {
    // the whole group is gone already
  }
  await closed;
}

await runScenario('start-up', async () => {
  const { rounds } = settingsFromEnv();
  const dir = freshCheckout();
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const gatewayPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME,
    LANG: process.env.LANG,
    GATEWAY_PORT: String(gatewayPort),
    EMBEDDED_PG_PORT: String(await freePort()),
    CORE_GRPC_ADDR: `127.0.0.1:${await freePort()}`,
    BPM_GRPC_ADDR: `127.0.0.1:${await freePort()}`,
    DMS_GRPC_ADDR: `127.0.0.1:${await freePort()}`,
    DMS_HTTP_ADDR: `127.0.0.1:${await freePort()}`,
    CORE_METRICS_PORT: String(await freePort()),
    BPM_METRICS_PORT: String(await freePort()),
    DMS_METRICS_PORT: String(await freePort()),
  };
  console.log(
    `# a copy of the checkout in ${dir}; load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
  const runs: Run[] = [];
  const log: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const leftover of ['.data', 'gateway/console/dist', 'node_modules/.cache']) rmSync(join(dir, leftover), { recursive: true, force: true });
    for (const kind of ['fresh', 'warm'] as const) {
      const run = await timeStart(kind, dir, env, gatewayPort, log);
      runs.push(run);
      console.log(`# round ${round} ${kind.padEnd(5)} healthy after ${fmt(run.healthyMs)} ms, ${fmt(run.cpuMs)} ms of CPU`);
    }
  }

  console.log('\nms from `npm start` to each step, per run:');
  const at = (run: Run, label: string): string => {
    const ms = run.steps.get(label);
    return ms === undefined ? '-' : fmt(ms);
  };
  printTable(
    ['run', ...STEPS.map((step) => step.label), 'healthy', 'CPU ms'],
    runs.map((run, i) => [`${Math.floor(i / 2) + 1} ${run.kind}`, ...STEPS.map((step) => at(run, step.label)), fmt(run.healthyMs), fmt(run.cpuMs)]),
  );
  const figures = (kind: Run['kind']) => {
    const these = runs.filter((run) => run.kind === kind);
    return { healthy: median(these.map((run) => run.healthyMs)), cpu: median(these.map((run) => run.cpuMs)) };
  };
  const warm = figures('warm');
  const fresh = figures('fresh');
  console.log(`\ntargets (median of ${rounds} rounds):`);
  printTable(
    ['start', 'healthy after', 'CPU used', 'target', 'verdict'],
    [
      [
        'warm',
        `${fmt(warm.healthy)} ms`,
        `${fmt(warm.cpu)} ms`,
        `≤ ${fmt(WARM_TARGET_MS)} ms`,
        judge(`warm start ≤ ${WARM_TARGET_MS} ms`, warm.healthy <= WARM_TARGET_MS),
      ],
      [
        'fresh',
        `${fmt(fresh.healthy)} ms`,
        `${fmt(fresh.cpu)} ms`,
        `≤ ${fmt(FRESH_TARGET_MS)} ms`,
        judge(`fresh start ≤ ${FRESH_TARGET_MS} ms`, fresh.healthy <= FRESH_TARGET_MS),
      ],
    ],
  );
});

/**
 * CPU accounting per process (from /proc), and waiting until the machine is quiet.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { BenchError } from './scenario.ts';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process in ms, from /proc (undefined when gone or unreadable). */
function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime field 15.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * CPU ms of every live process whose command (comm) is `command` (postgres: the server and its
 * backends), by pid; with `argsInclude`, only those whose arguments (their process title) contain it.
 */
export function commandCpuMs(command: string, argsInclude?: string): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes(`(${command})`)) continue;
      if (argsInclude !== undefined && !readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(argsInclude)) continue;
      const ms = processCpuMs(Number(entry));
      if (ms !== undefined) byPid.set(Number(entry), ms);
    } catch {
      // gone meanwhile
    }
  }
  return byPid;
}

/**
 * Processes whose CPU time a run reports: label to pid, or to a command name meaning every process
 * of that command (`postgres`: the server and every backend; `redis-server`), or to a command and
 * what its arguments include: `databaseBackends(name)`, the backends connected to one database.
 */
export type CpuWatch = Record<string, number | string | { command: string; argsInclude: string }>;

/**
 * PostgreSQL's backends connected to database `name`, by the process title PostgreSQL gives each
 * ("postgres: 15/main: user name 127.0.0.1(5555) idle"): the work of one platform's queries alone,
 * whatever else the server serves meanwhile (not its WAL writer or checkpointer, which are shared).
 */
export function databaseBackends(name: string): { command: string; argsInclude: string } {
  return { command: 'postgres', argsInclude: ` ${name} ` };
}

/** CPU times of the watched processes (and of this one, as `bench client`) at one moment. */
export type CpuSnapshot = Record<string, number | Map<number, number>>;

export function cpuSnapshot(watch: CpuWatch): CpuSnapshot {
  const snapshot: CpuSnapshot = {};
  for (const [label, pid] of Object.entries(watch))
    snapshot[label] =
      typeof pid === 'number' ? (processCpuMs(pid) ?? NaN) : typeof pid === 'string' ? commandCpuMs(pid) : commandCpuMs(pid.command, pid.argsInclude);
  const own = process.cpuUsage();
  snapshot['bench client'] = (own.user + own.system) / 1000;
  return snapshot;
}

/**
 * CPU ms used between two snapshots, per label. For a set of processes, per pid: backends that
 * started meanwhile count whole (pools open connections on demand), backends that ended meanwhile
 * (pools close idle connections after 10 s) count nothing rather than a negative amount. A set with
 * no process at either snapshot (the server runs elsewhere, or in a PID namespace this one cannot
 * see) was not measured: NaN, never a sum of nothing that reads as 0 ms.
 */
export function cpuUsed(before: CpuSnapshot, after: CpuSnapshot): Record<string, number> {
  const used: Record<string, number> = {};
  for (const [label, end] of Object.entries(after)) {
    const start = before[label];
    if (typeof end === 'number') {
      used[label] = typeof start === 'number' ? end - start : NaN;
      continue;
    }
    if (end.size === 0 || !(start instanceof Map) || start.size === 0) {
      used[label] = NaN;
      continue;
    }
    let sum = 0;
    for (const [pid, ms] of end) sum += ms - (start instanceof Map ? (start.get(pid) ?? 0) : 0);
    used[label] = sum;
  }
  return used;
}

/**
 * Waits until every process of `pids` has used less than 5 % of a core over a quarter of a second
 * (at most `timeoutMs`): work a run left queued (requests autocannon gave up on at its end, which a
 * service still serves) must not be counted to the next run.
 */
export async function untilQuiet(pids: readonly number[], timeoutMs = 30_000): Promise<void> {
  const windowMs = 250;
  const deadline = Date.now() + timeoutMs;
  let before = pids.map((pid) => processCpuMs(pid) ?? 0);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = pids.map((pid) => processCpuMs(pid) ?? 0);
    if (now.every((ms, i) => ms - (before[i] ?? 0) < windowMs * 0.05)) return;
    if (Date.now() > deadline) throw new BenchError(`processes ${pids.join(', ')} still busy ${timeoutMs / 1000} s after the run`);
    before = now;
  }
}

/**
 * CPU ms (user + system) that process `root` and its descendants have used so far: each live one's
 * own, plus what its children that ended and were waited for used (cutime, cstime: initdb, a build's
 * workers). Descendants are found by parent pid; one whose parent ended before it is not counted.
 */
export function processTreeCpuMs(root: number): number {
  const parents = new Map<number, number>();
  const used = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] is field 3 (state): ppid is field 4, utime to cstime fields 14 to 17
      parents.set(Number(entry), Number(fields[1]));
      used.set(Number(entry), ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS);
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parents.get(at)) if (at === root) return true;
    return false;
  };
  let sum = 0;
  for (const [pid, ms] of used) if (inTree(pid)) sum += ms;
  return sum;
}

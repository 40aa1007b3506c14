/**
 * Summarises the CPU profiles a scenario run with BENCH_CPU_PROF=<dir> left behind: for each
 * profiled process, where its busy time went during the measured rounds only (start-up, set-up and
 * warm-up are left out using <dir>/bench-window.json, which the scenario writes), by package and by
 * function (self time).
 *
 *   BENCH_CPU_PROF=/tmp/prof node bench/branch-get.ts
 *   node bench/profile-summary.ts /tmp/prof [--top 15] [--all]
 *
 * --all keeps every sample (no window, every profile in the folder). Percentages are of the
 * process's busy samples (not idle). The profiler samples wall-clock intervals of the main thread:
 * on a machine with fewer cores than busy processes, time the thread spent preempted inside a
 * system call (a socket write waking PostgreSQL, say) is counted to that call, so native write
 * calls look dearer than the CPU they use; the CPU-per-request table of the scenario is the
 * better measure of cost, the profile the better pointer to where it goes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface Window {
  scenario: string;
  from: number;
  to: number;
  processes: Record<string, string>;
}

const args = process.argv.slice(2);
const dir = args.find((arg) => !arg.startsWith('--') && !/^\d+$/.test(arg));
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 15;
const all = args.includes('--all');
if (!dir || !existsSync(dir)) {
  console.error('usage: node bench/profile-summary.ts <BENCH_CPU_PROF folder> [--top N] [--all]');
  process.exit(2);
}

const windowFile = join(dir, 'bench-window.json');
const window: Window | undefined = !all && existsSync(windowFile) ? (JSON.parse(readFileSync(windowFile, 'utf8')) as Window) : undefined;
if (window) console.log(`# ${window.scenario}: measured rounds only (${((window.to - window.from) / 1e6).toFixed(1)} s)`);
else console.log('# every sample of every profile (no bench-window.json, or --all)');

const files = readdirSync(dir)
  .filter((file) => file.endsWith('.cpuprofile'))
  .sort();
let shown = 0;
for (const file of files) {
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile
  const pid = file.split('.')[3] ?? '?';
  const name = window ? window.processes[pid] : `pid ${pid}`;
  if (!name) continue; // another run's profile
  summarise(name, JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile);
  shown++;
}
if (shown === 0) console.log(`no profile of the processes of ${windowFile} in ${dir} (written only when the processes stop)`);

function summarise(name: string, profile: Profile): void {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    const interval = profile.timeDeltas[i + 1] ?? 0;
    if (window && (time < window.from || time > window.to)) continue;
    const id = profile.samples[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + interval);
  }
  let total = 0;
  let idle = 0;
  for (const [id, micros] of self) {
    total += micros;
    if (nodes.get(id)?.callFrame.functionName === '(idle)') idle += micros;
  }
  const busy = total - idle;
  console.log(`\n== ${name}: ${(total / 1e6).toFixed(1)} s sampled, busy ${pct(busy, total)}`);
  if (busy <= 0) return;
  const group = (key: (frame: ProfileNode['callFrame']) => string): [string, number][] => {
    const sums = new Map<string, number>();
    for (const [id, micros] of self) {
      const frame = nodes.get(id)?.callFrame;
      if (!frame || frame.functionName === '(idle)') continue;
      const k = key(frame);
      sums.set(k, (sums.get(k) ?? 0) + micros);
    }
    return [...sums].sort((a, b) => b[1] - a[1]).slice(0, top);
  };
  console.log('  self time by package (% of busy):');
  for (const [key, micros] of group(packageOf)) console.log(`  ${pct(micros, busy)}  ${key}`);
  console.log('  self time by function (% of busy):');
  for (const [key, micros] of group(
    (frame) => `${frame.functionName || '(anonymous)'}  ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`,
  )) {
    console.log(`  ${pct(micros, busy)}  ${key}`);
  }
}

function packageOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : `(native) ${functionName}`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency?.[1]) return dependency[1];
  if (url.startsWith('node:')) return `node:${url.replace(/^node:(internal\/)?(deps\/)?/, '').split('/')[0]}`;
  const own = /\/work\/[^/]+\/([^/]+)\//.exec(url) ?? /([^/]+)\/src\//.exec(url);
  return own?.[1] ?? url;
}

function shortUrl(url: string): string {
  return url.replace(/^file:\/\/.*?node_modules\//, '').replace(/^file:\/\/.*?\/((?:gateway|libs|core-svc|bpm-svc|dms-svc|bench|scripts)\/)/, '$1');
}

function pct(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1).padStart(5)}%`;
}

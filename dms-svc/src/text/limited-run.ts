import { spawn } from 'node:child_process';
import { ExtractionFailure } from './extraction-failure.ts';

/** What one run of an extraction tool may use. */
export interface RunLimits {
  /** When the run is killed (`performance.now()` ms): the file's deadline. */
  deadline: number;
  /** The address space the tool may take (RLIMIT_AS): an allocation past it fails in the tool. */
  memoryBytes: number;
  /** How much of its standard output is kept; the rest is read and dropped. */
  maxOutputBytes: number;
}

/** What a tool wrote, and whether more was written than was kept. */
export interface RunOutput {
  stdout: Buffer;
  truncated: boolean;
}

/** How much of a tool's standard error is kept for the reason of a failure. */
const STDERR_KEPT = 2_000;

/**
 * Runs `command` under the limits of one file's extraction (docs/adr/0159-documents-found-by-their-words.md):
 * through util-linux's prlimit, its address space at most `memoryBytes` and its CPU time at most the
 * time left to the deadline (a tool that forks or blocks is still killed at the deadline), its
 * output kept up to `maxOutputBytes`, its environment only what it needs (one OCR thread, so that
 * the time limit counts one core). A tool that exits non-zero, is killed or is missing is an
 * ExtractionFailure with what it said.
 *
 * @example
 * const { stdout } = await runLimited('pdfinfo', ['file.pdf'], { deadline: performance.now() + 60_000, memoryBytes: 512 << 20, maxOutputBytes: 65_536 });
 */
export function runLimited(command: string, args: readonly string[], limits: RunLimits): Promise<RunOutput> {
  const left = limits.deadline - performance.now();
  if (left <= 0) return Promise.reject(timedOut(command));
  const cpuSeconds = Math.max(1, Math.ceil(left / 1000));
  return new Promise((resolve, reject) => {
    const child = spawn('prlimit', [`--as=${limits.memoryBytes}`, `--cpu=${cpuSeconds}`, '--core=0', '--', command, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', OMP_THREAD_LIMIT: '1' },
    });
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let truncated = false;
    let stderr = '';
    let killedAtDeadline = false;
    const timer = setTimeout(() => {
      killedAtDeadline = true;
      child.kill('SIGKILL');
    }, left);
    child.stdout.on('data', (chunk: Buffer) => {
      const room = limits.maxOutputBytes - keptBytes;
      if (room <= 0) {
        truncated = true;
        return;
      }
      if (chunk.length > room) truncated = true;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      kept.push(part);
      keptBytes += part.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8').slice(0, STDERR_KEPT - stderr.length);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ExtractionFailure(`${command} could not be started: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (killedAtDeadline || signal === 'SIGXCPU' || signal === 'SIGKILL') return reject(timedOut(command));
      if (code === 0) return resolve({ stdout: Buffer.concat(kept), truncated });
      // prlimit itself exits 127 (tool missing) or 126 (not runnable)
      if (code === 127 || code === 126) return reject(new ExtractionFailure(`${command} is not installed on the worker`));
      const said = firstLines(stderr);
      const memory = /alloc|memory|std::bad_alloc/i.test(stderr) ? ` (the memory limit is ${Math.round(limits.memoryBytes / 1024 ** 2)} MiB)` : '';
      reject(new ExtractionFailure(`${command} failed${signal ? ` (${signal})` : ` (exit ${code})`}${memory}${said ? `: ${said}` : ''}`));
    });
  });
}

function timedOut(command: string): ExtractionFailure {
  return new ExtractionFailure(`${command} ran past the file's time limit`);
}

/** The first lines of what a tool said on its standard error, on one line. */
function firstLines(stderr: string): string {
  return stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, 3)
    .join(' / ')
    .slice(0, 300);
}

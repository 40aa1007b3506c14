/**
 * apt-get for the tests that need a Debian package (helpers/chromium.ts, helpers/clamd.ts,
 * helpers/redis-sentinel.ts): test/run.ts installs what a selected file needs before ava starts.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * Whether the ava arguments select a file that imports `helper` (its path from test/, e.g.
 * `helpers/clamd.ts`): the whole suite, a glob or an unreadable argument count as selecting it.
 */
export async function selectionImports(avaArgs: readonly string[], rootDir: string, helper: string): Promise<boolean> {
  const files = avaArgs.filter((arg) => !arg.startsWith('-'));
  if (files.length === 0) return true;
  for (const file of files) {
    const text = await readFile(resolve(rootDir, file), 'utf8').catch(() => undefined);
    if (text === undefined || text.includes(helper)) return true;
  }
  return false;
}

/** apt-get with the given arguments, its output on stderr (stdout is the run's TAP); true when it exits 0. */
export function aptGet(args: string[]): Promise<boolean> {
  return new Promise((done) => {
    // another apt on the machine (an engineer's install) holds the lock: wait for it rather than fail
    const child = spawn('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout?.pipe(process.stderr);
    child.on('error', () => done(false));
    child.on('close', (code) => done(code === 0));
  });
}

/**
 * Installs Debian packages without their recommendations: the install, and when that fails (a fresh
 * machine has no package lists) `apt-get update` and the install again. True when it succeeded.
 */
export async function aptInstall(...packages: string[]): Promise<boolean> {
  return (
    (await aptGet(['install', '-y', '--no-install-recommends', ...packages])) ||
    ((await aptGet(['update'])) && (await aptGet(['install', '-y', '--no-install-recommends', ...packages])))
  );
}

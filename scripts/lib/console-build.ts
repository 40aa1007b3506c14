/**
 * The console's build (Vite, gateway/console → gateway/console/dist), run by `npm start` and `npm test`
 * when its sources changed since the last build: a fresh clone's two commands serve and test a built
 * console without a third. The sources' hash is kept in dist/.source-hash.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT_DIR } from './platform-layout.ts';

const CONSOLE_DIR = join(ROOT_DIR, 'gateway/console');
export const CONSOLE_DIST = join(CONSOLE_DIR, 'dist');
const HASH_FILE = join(CONSOLE_DIST, '.source-hash');

/** What the bundle is made of: the console's sources, the types and declarations it shares, and the locked versions of its packages. */
const INPUTS = [
  join(CONSOLE_DIR, 'src'),
  join(CONSOLE_DIR, 'index.html'),
  join(CONSOLE_DIR, 'vite.config.ts'),
  join(CONSOLE_DIR, 'public'),
  join(ROOT_DIR, 'libs/contracts/src/console'),
  join(ROOT_DIR, 'libs/contracts/src/bpm/accrual-moves.ts'),
  join(ROOT_DIR, 'package-lock.json'),
];

function* files(path: string): Generator<string> {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) return void (yield path);
  for (const entry of readdirSync(path).sort()) yield* files(join(path, entry));
}

/** SHA-256 over every input file's path and bytes. */
export function consoleSourceHash(): string {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(input)) hash.update(relative(ROOT_DIR, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/**
 * Builds the console unless dist/ was built from these very sources. Answers whether it built, and
 * how long that took.
 */
export async function ensureConsoleBuilt(say: (line: string) => void): Promise<{ built: boolean; ms: number }> {
  const hash = consoleSourceHash();
  if (existsSync(HASH_FILE) && readFileSync(HASH_FILE, 'utf8') === hash && existsSync(join(CONSOLE_DIST, 'index.html'))) return { built: false, ms: 0 };
  const started = performance.now();
  say('building the console (gateway/console → gateway/console/dist)');
  const { build } = await import('vite');
  await build({ configFile: join(CONSOLE_DIR, 'vite.config.ts'), logLevel: 'warn' });
  writeFileSync(HASH_FILE, hash);
  const ms = Math.round(performance.now() - started);
  say(`console built in ${ms} ms`);
  return { built: true, ms };
}

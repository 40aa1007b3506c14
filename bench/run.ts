/**
 * `npm run bench`: runs every scenario of bench/ one after another, each in its own process (each
 * starts and stops its own platform on a fresh database), and exits non-zero when any failed or
 * missed a target.
 * A scenario is any `bench/*.ts` file but the helpers listed in HELPERS.
 *
 *   npm run bench                       every scenario
 *   npm run bench -- branch-get         only these (names without .ts): branch-get, branch-get-pooled, branch-get-rls, branch-get-token, login-flood, file-transfer, tus-upload, steady-load, list-scale, cursor-walk, export, gc-survival,
 *                                       outbox-cost, webhook-delivery, tracing-cost, virus-scan, file-storage-s3, start-up, search, totp-login,
 *                                       redis-failover, import, text-extraction, text-search
 *   BENCH_DURATION=3 BENCH_ROUNDS=3 npm run bench
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TARGET_MISSED_EXIT } from './lib.ts';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
/** Files of bench/ that are not scenarios. */
const HELPERS = new Set([
  'run.ts',
  'lib.ts',
  'gc-watch.ts',
  'baseline-server.ts',
  'grpc-hop-server.ts',
  'branch-row.ts',
  'branch-targets.ts',
  'open-loop.ts',
  'profile-summary.ts',
  'heap-sample.ts',
  'list-seed.ts',
  'list-sql.ts',
  'text-seed.ts',
]);

const all = readdirSync(BENCH_DIR)
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !HELPERS.has(file))
  .map((file) => file.slice(0, -3))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !all.includes(name));
if (unknown.length > 0) {
  console.error(`unknown scenario ${unknown.join(', ')}; scenarios: ${all.join(', ')}`);
  process.exit(2);
}
const scenarios = wanted.length > 0 ? wanted : all;

// Ctrl-C reaches the running scenario too (same process group): it cleans up and exits, and we
// report after it instead of leaving it behind.
let interrupted = false;
process.on('SIGINT', () => (interrupted = true));
process.on('SIGTERM', () => (interrupted = true));

const outcomes: [string, string][] = [];
for (const name of scenarios) {
  if (interrupted) break;
  const started = Date.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [join(BENCH_DIR, `${name}.ts`)], { stdio: 'inherit', env: process.env });
    child.on('error', (error) => {
      console.error(`${name}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
  });
  const outcome = code === 0 ? 'ok' : code === TARGET_MISSED_EXIT ? 'target MISSED' : `FAILED (exit ${code})`;
  outcomes.push([name, `${outcome} in ${Math.round((Date.now() - started) / 1000)} s`]);
}

console.log('\nbench:');
for (const [name, outcome] of outcomes) console.log(`  ${name}: ${outcome}`);
const failed = outcomes.filter(([, outcome]) => !outcome.startsWith('ok')).length;
process.exit(interrupted ? 130 : failed > 0 ? 1 : 0);

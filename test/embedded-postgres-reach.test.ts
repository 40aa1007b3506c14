/**
 * The embedded PostgreSQL wherever the checkout is (docs/adr/0059-the-embedded-postgresql-starts.md, the embedded
 * database). As root the server runs as the user `postgres`, which cannot enter root's 0700 home:
 * a checkout there must still start it (README: `npm ci && npm start`), and a start that cannot
 * happen is an error naming the cause and the remedy, never an unhandled 'error' event.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { startEmbeddedPostgres } from '../scripts/lib/embedded-postgres.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';

const asRoot = userInfo().uid === 0 ? test : test.skip;

/** Starts the embedded server of the checkout it sits in (data in its .data/pg, as `npm start`), asks it one query, stops it. */
const PROBE = `
import { realpathSync } from 'node:fs';
import { startEmbeddedPostgres } from './scripts/lib/embedded-postgres.ts';
import { freePort } from './scripts/lib/os-probes.ts';
import { withClient } from './scripts/lib/pg-client.ts';
// startEmbeddedPostgres as npm start calls it, on a free port picked again if taken meanwhile
let server;
for (let attempt = 1; !server; attempt++) {
  try {
    server = await startEmbeddedPostgres({ dataDir: '.data/pg', port: await freePort(), fast: true });
  } catch (error) {
    if (attempt >= 3 || !/could not bind|address already in use/i.test(error.message)) throw error;
  }
}
const answer = await withClient(server.url, async (client) => (await client.query('SELECT 6 * 7 AS answer')).rows[0].answer);
await server.stop();
console.log(JSON.stringify({ answer, cluster: realpathSync('.data/pg') }));
`;

asRoot('a checkout in a folder the user postgres cannot enter starts the embedded PostgreSQL, which answers a query', async (t) => {
  // mkdtemp makes a 0700 folder, as root's home is on Debian; the checkout is linked into it.
  const outer = await mkdtemp(join(tmpdir(), 'checkout-0700-'));
  const checkout = join(outer, 'x');
  let cluster: string | undefined;
  try {
    mkdirSync(checkout);
    for (const part of ['package.json', 'scripts', 'node_modules']) execFileSync('cp', ['-al', join(ROOT_DIR, part), checkout]);
    writeFileSync(join(checkout, 'probe.ts'), PROBE);
    const run = spawn(process.execPath, ['probe.ts'], { cwd: checkout, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    run.stdout.on('data', (chunk) => (stdout += chunk));
    run.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => run.once('close', resolve));
    const result = stdout.trim() === '' ? undefined : (JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { answer: number; cluster: string });
    cluster = result?.cluster;
    t.is(code, 0, stderr);
    t.is(result?.answer, 42, stdout + stderr);
    t.notRegex(stderr, /Unhandled 'error' event/);
  } finally {
    await rm(outer, { recursive: true, force: true });
    // A cluster made outside the checkout (where postgres can reach it) belongs to this test too.
    if (cluster && !cluster.startsWith(outer)) await rm(dirname(cluster), { recursive: true, force: true });
  }
});

test('a PostgreSQL binary that cannot run: the start rejects naming the file, the cause and the remedy', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pg-broken-'));
  try {
    const binaries = join(dir, 'native');
    mkdirSync(join(binaries, 'bin'), { recursive: true });
    for (const name of ['initdb', 'postgres']) {
      writeFileSync(join(binaries, 'bin', name), 'not a program\n');
      chmodSync(join(binaries, 'bin', name), 0o644);
    }
    const error = await t.throwsAsync(startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), binariesDir: binaries }));
    t.regex(error?.message ?? '', /cannot run \S+\/bin\/initdb \(EACCES\): it is not executable: run npm ci/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

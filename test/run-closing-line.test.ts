/**
 * The runner's closing line (test/run.ts, README "Two commands"): every run ends with the plain line
 * `N passed, M failed`, M at least 1 whenever the run failed — also when the set-up throws before any
 * test runs, and when a part of the teardown fails after every test passed. Each case is a real run
 * of test/run.ts over one small test file.
 */
import { spawn } from 'node:child_process';
import { createServer, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import { freePort } from '../scripts/lib/os-probes.ts';
import { withClient } from '../scripts/lib/pg-client.ts';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';
import { platform } from './helpers/platform.ts';

const INNER = 'test/logger.test.ts'; // three quick tests that need nothing of the platform

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  closing: string | undefined;
}

/** Runs test/run.ts on INNER with `env`; `onLine` sees each line of its output as it comes. */
function runner(env: Record<string, string>, onLine: (line: string) => void = () => undefined): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT_DIR, 'test/run.ts'), INNER], {
      cwd: ROOT_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(onLine);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => {
      const closing = stdout.trim().split('\n').at(-1);
      resolve({ code, stdout, stderr, closing });
    });
  });
}

test('a database that cannot be reached: the run closes with "0 passed, 1 failed" and exits 1', async (t) => {
  const nobody = await freePort(); // nothing listens there
  const run = await runner({ TEST_DATABASE_URL: `postgres://postgres@127.0.0.1:${nobody}/postgres` });
  t.is(run.closing, '0 passed, 1 failed', run.stdout + run.stderr);
  t.is(run.code, 1);
  t.regex(run.stderr, /TEST_DATABASE_URL does not answer/);
});

test('a teardown that fails after every test passed: the closing line counts it as a failure, after the teardown, and the run exits 1', async (t) => {
  // The inner run's database server, reached through a relay this test cuts once the inner tests
  // are done: the inner run's teardown then cannot drop its database.
  const target = new URL(platform.databaseUrl);
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  const through = new URL(target);
  through.host = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  through.pathname = '/postgres';
  let cut = false;
  let database: string | undefined;
  try {
    const run = await runner({ TEST_DATABASE_URL: through.toString() }, (line) => {
      // `fresh database <name>, served as its own role`: the name without the comma
      database ??= /fresh database ([^\s,]+)/.exec(line)?.[1];
      if (!cut && /^# fail \d+/.test(line)) {
        cut = true;
        relay.close();
        for (const socket of sockets) socket.destroy();
      }
    });
    t.true(cut, 'the inner tests finished');
    t.regex(run.stdout, /^# pass 3$/m, 'every inner test passed');
    t.regex(run.stdout, /# could not drop the test database/);
    const [, passed, failed] = /^(\d+) passed, (\d+) failed$/.exec(run.closing ?? '') ?? [];
    t.true(Number(failed) >= 1, `closing line: ${run.closing}`);
    t.true(Number(passed) >= 3, `closing line: ${run.closing}`);
    t.is(run.code, 1);
  } finally {
    relay.close();
    for (const socket of sockets) socket.destroy();
    if (database) {
      const admin = new URL(target);
      admin.pathname = '/postgres';
      // the database the inner run could not drop, and its serving role (scripts/lib/test-database.ts)
      await withClient(admin.toString(), async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(database ?? '')} WITH (FORCE)`);
        await client.query(`DROP ROLE IF EXISTS ${client.escapeIdentifier(`${database}_svc`)}`);
      });
    }
  }
});

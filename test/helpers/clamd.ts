/**
 * A real clamd for the virus-scan tests and the bench: Debian's `clamav-daemon`, started per test
 * file on a free port of 127.0.0.1 and a unix socket in a temporary folder, with ONE local test
 * signature as its whole database (no freshclam, nothing downloaded): clamd starts on it in well
 * under a second. test/run.ts installs the package before ava when a selected file needs it
 * (`ensureClamd`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { access, constants, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/lib/os-probes.ts';
import { aptInstall, selectionImports } from './apt-get.ts';

export const CLAMD_PATH = '/usr/sbin/clamd';
/** The import by which a test file says it needs clamd: run.ts looks for it in the selected files. */
const NEEDS_CLAMD = 'helpers/clamd.ts';

/** The name of the test signature; clamd reports a signature of an unofficial database with `.UNOFFICIAL` after it. */
export const TEST_SIGNATURE = 'Platform.Test.Marker';
/** What clamd answers for a file holding TEST_MARKER. */
export const TEST_SIGNATURE_FOUND = `${TEST_SIGNATURE}.UNOFFICIAL`;
/** Bytes that make any file holding them "infected" for the test clamd (a body signature, .ndb, at any offset). */
export const TEST_MARKER = 'PLATFORM-VIRUS-SCAN-TEST-MARKER-7f3a9c';

const NOT_ROOT =
  `The virus-scan tests need clamd at ${CLAMD_PATH}, and it could not be installed: this run is not root. ` +
  'Install it once as root (Debian/Ubuntu: sudo apt-get install -y --no-install-recommends clamav-daemon), then run the tests again.';

async function present(): Promise<boolean> {
  return access(CLAMD_PATH, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** Whether the ava arguments select a file that needs clamd: the whole suite, a glob, or a file that imports this helper. */
export function selectionNeedsClamd(avaArgs: readonly string[], rootDir: string): Promise<boolean> {
  return selectionImports(avaArgs, rootDir, NEEDS_CLAMD);
}

/**
 * Installs Debian's clamav-daemon when /usr/sbin/clamd is missing (`apt-get install -y
 * --no-install-recommends clamav-daemon`, after `apt-get update` when that fails). Needs root;
 * otherwise it throws saying what to run. No signatures are fetched: the tests bring their own.
 */
export async function ensureClamd(): Promise<void> {
  if (await present()) return;
  if (process.getuid?.() !== 0) throw new Error(NOT_ROOT);
  console.log(`# clamd: ${CLAMD_PATH} is missing, installing Debian's clamav-daemon (about half a minute)`);
  const installed = await aptInstall('clamav-daemon');
  if (!installed || !(await present()))
    throw new Error(`apt-get could not install clamav-daemon (see its output above); the virus-scan tests need ${CLAMD_PATH}`);
}

export interface ClamdOptions {
  /** clamd's StreamMaxLength in bytes: a longer INSTREAM is refused (default 64 MiB). */
  streamMaxLength?: number;
}

/** A clamd of a test's own. */
export interface TestClamd {
  /** CLAMD_ADDRESS of its TCP socket: tcp://127.0.0.1:<port>. */
  tcpAddress: string;
  /** CLAMD_ADDRESS of its unix socket: unix:/tmp/…/clamd.sock. */
  unixAddress: string;
  /** The clamd process's id (for its CPU time). */
  pid: number;
  /** How long clamd took from spawn to its first PONG, in ms. */
  startMs: number;
  /** Stops it (SIGTERM) and removes its folder. */
  stop(): Promise<void>;
}

/** Answers clamd's PING on `port` with PONG? */
function pong(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('connect', () => socket.write('zPING\0'));
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.on('error', () => done(false));
    socket.on('close', () => done(reply.startsWith('PONG')));
  });
}

/**
 * Starts `clamd --foreground` with a config of its own in a temporary folder: TCPSocket on a free
 * port of 127.0.0.1, LocalSocket beside the config, DatabaseDirectory holding only the test
 * signature (TEST_MARKER anywhere in a file), StreamMaxLength as asked, and MaxFileSize and
 * MaxScanSize as large, so that whatever the stream admits is scanned whole. As root, `User` is left
 * unset (clamd keeps root, and reads its folder). Resolves once clamd answers PING.
 */
export async function startClamd(options: ClamdOptions = {}): Promise<TestClamd> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-clamd-'));
  const port = await freePort();
  const streamMaxLength = options.streamMaxLength ?? 64 * 1024 * 1024;
  await writeFile(join(dir, 'test.ndb'), `${TEST_SIGNATURE}:0:*:${Buffer.from(TEST_MARKER).toString('hex')}\n`);
  const socketPath = join(dir, 'clamd.sock');
  await writeFile(
    join(dir, 'clamd.conf'),
    [
      'Foreground yes',
      `DatabaseDirectory ${dir}`,
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `LocalSocket ${socketPath}`,
      `StreamMaxLength ${streamMaxLength}`,
      `MaxFileSize ${streamMaxLength}`,
      `MaxScanSize ${streamMaxLength}`,
      'LogSyslog no',
      `LogFile ${join(dir, 'clamd.log')}`,
      '',
    ].join('\n'),
  );
  const started = performance.now();
  const child: ChildProcess = spawn(CLAMD_PATH, ['--foreground', `--config-file=${join(dir, 'clamd.conf')}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let running = true;
  void exited.then(() => (running = false));
  const stop = async () => {
    if (running) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  while (!(await pong(port))) {
    if (!running || performance.now() - started > 30_000) {
      await stop();
      throw new Error(`clamd did not start: ${stderr.slice(0, 2000)}`);
    }
    await new Promise((wait) => setTimeout(wait, 50));
  }
  return { tcpAddress: `tcp://127.0.0.1:${port}`, unixAddress: `unix:${socketPath}`, pid: child.pid ?? 0, startMs: performance.now() - started, stop };
}

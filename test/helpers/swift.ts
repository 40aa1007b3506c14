/**
 * A real S3-compatible server for the tests on DMS_STORAGE=s3: OpenStack Swift from Debian's
 * packages (swift-proxy, swift-account, swift-container, swift-object, with memcached, which
 * Swift's s3api middleware needs), all on 127.0.0.1 on free ports, with rings of one replica and
 * its data in a temporary folder of its own. The proxy runs s3api with tempauth: the access key
 * `test:tester`, the secret `testing`, path-style buckets in region us-east-1. Started per test file
 * (about a second); test/run.ts installs the packages before ava when a selected file needs them
 * (`ensureSwift`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { access, constants, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from '../../scripts/lib/os-probes.ts';
import { aptInstall } from './apt-get.ts';
import { accepts, until } from './until.ts';

const BIN = '/usr/bin';
const SERVERS = ['swift-proxy-server', 'swift-account-server', 'swift-container-server', 'swift-object-server'] as const;
const MEMCACHED = '/usr/bin/memcached';
/** The Debian packages, installed without their recommendations. */
const PACKAGES = ['swift-proxy', 'swift-account', 'swift-container', 'swift-object', 'memcached'];
/** The import by which a test file says it needs Swift: run.ts looks for it in the selected files. */
const NEEDS_SWIFT = 'helpers/swift.ts';

export const SWIFT_ACCESS_KEY = 'test:tester';
export const SWIFT_SECRET_KEY = 'testing';
export const SWIFT_REGION = 'us-east-1';

const NOT_ROOT =
  'The S3 storage tests need OpenStack Swift, and it could not be installed: this run is not root. Install it once as root ' +
  `(Debian/Ubuntu: sudo apt-get install -y --no-install-recommends ${PACKAGES.join(' ')}), then run the tests again.`;

async function present(): Promise<boolean> {
  const paths = [...SERVERS.map((name) => join(BIN, name)), join(BIN, 'swift-ring-builder'), MEMCACHED];
  for (const path of paths) {
    if (
      !(await access(path, constants.X_OK).then(
        () => true,
        () => false,
      ))
    )
      return false;
  }
  return true;
}

/** Whether the ava arguments select a file that needs Swift: the whole suite, a glob, or a file that imports this helper. */
export async function selectionNeedsSwift(avaArgs: readonly string[], rootDir: string): Promise<boolean> {
  const files = avaArgs.filter((arg) => !arg.startsWith('-'));
  if (files.length === 0) return true;
  for (const file of files) {
    const text = await readFile(resolve(rootDir, file), 'utf8').catch(() => undefined);
    if (text === undefined || text.includes(NEEDS_SWIFT)) return true;
  }
  return false;
}

/** Installs Swift's four servers and memcached from Debian when one is missing. Needs root; otherwise it throws saying what to run. */
export async function ensureSwift(): Promise<void> {
  if (await present()) return;
  if (process.getuid?.() !== 0) throw new Error(NOT_ROOT);
  console.log(`# swift: installing Debian's ${PACKAGES.join(', ')} (about a minute)`);
  for (const pkg of PACKAGES) {
    if (!(await aptInstall(pkg))) throw new Error(`apt-get could not install ${pkg} (see its output above); the S3 storage tests need it`);
  }
  if (!(await present())) throw new Error('Swift is still incomplete after apt-get; the S3 storage tests need its four servers and memcached');
}

/** A Swift of a test's own. */
export interface TestSwift {
  /** The S3 endpoint: http://127.0.0.1:<port>. */
  endpoint: string;
  bucket: string;
  /** The DMS_STORAGE=s3 settings of a dms-svc on it. */
  env: Record<string, string>;
  /** A client of it, for the tests' own looks at the bucket. */
  client: S3Client;
  /** How long it took from spawn to the bucket made, in ms. */
  startMs: number;
  /** The pid of each server (proxy, account, container, object, memcached), for a benchmark's CPU accounting. */
  pids: Record<string, number>;
  /** Stops every process and removes its folder. */
  stop(): Promise<void>;
}

/** The [DEFAULT] section every server's conf starts with: its port on 127.0.0.1, one process, the rings' folder, the current user. */
function defaults(dir: string, port: number): string[] {
  return [
    '[DEFAULT]',
    'bind_ip = 127.0.0.1',
    `bind_port = ${port}`,
    'workers = 0',
    `user = ${process.env.USER || 'root'}`,
    `swift_dir = ${dir}`,
    'log_level = WARNING',
  ];
}

/** One server's conf: its port, the rings' and devices' folder, no mount check, running as the current user. */
function serverConf(dir: string, port: number, app: string): string {
  return [
    ...defaults(dir, port),
    `devices = ${join(dir, 'srv')}`,
    'mount_check = false',
    '',
    '[pipeline:main]',
    `pipeline = ${app}-server`,
    '',
    `[app:${app}-server]`,
    `use = egg:swift#${app}`,
    '',
  ].join('\n');
}

function proxyConf(dir: string, port: number, memcachedPort: number): string {
  const filters = ['catch_errors', 'gatekeeper', 'healthcheck', 'proxy-logging', 'listing_formats', 'copy', 'slo', 'dlo', 's3api'];
  return [
    ...defaults(dir, port),
    '',
    '[pipeline:main]',
    'pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server',
    '',
    '[app:proxy-server]',
    'use = egg:swift#proxy',
    'account_autocreate = true',
    // a server still starting must not be set aside for a minute (the proxy's default after ten errors)
    'error_suppression_limit = 100000',
    '',
    '[filter:tempauth]',
    'use = egg:swift#tempauth',
    'user_test_tester = testing .admin',
    '',
    '[filter:cache]',
    'use = egg:swift#memcache',
    `memcache_servers = 127.0.0.1:${memcachedPort}`,
    '',
    ...filters.flatMap((name) => [`[filter:${name}]`, `use = egg:swift#${name.replace('-', '_')}`, '']),
  ].join('\n');
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    // swift-ring-builder exits 1 on a warning (a ring of one device): only 2 and above are failures
    child.on('close', (code) => (code !== null && code < 2 ? done() : fail(new Error(`${command} ${args.join(' ')}: ${code}\n${output}`))));
  });
}

/**
 * Starts memcached and Swift's four servers on free ports of 127.0.0.1, their rings (one replica,
 * one device) and data in a fresh temporary folder, and makes `bucket`. Resolves once the bucket
 * is made through the S3 API; fails when that takes longer than `withinMs` (its rings and four
 * Python starts take 5-10 s on an idle machine, near a minute on one loaded 15 and more).
 */
export async function startSwift(bucket = 'platform-files', withinMs = 60_000): Promise<TestSwift> {
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'platform-swift-'));
  await mkdir(join(dir, 'srv', 'sdb1'), { recursive: true });
  const ports = { proxy: await freePort(), account: await freePort(), container: await freePort(), object: await freePort(), memcached: await freePort() };
  // the three rings side by side: each builder is a Python start of its own
  await Promise.all(
    (['account', 'container', 'object'] as const).map(async (ring) => {
      const builder = `${ring}.builder`;
      await run(join(BIN, 'swift-ring-builder'), [builder, 'create', '10', '1', '1'], dir);
      await run(join(BIN, 'swift-ring-builder'), [builder, 'add', `r1z1-127.0.0.1:${ports[ring]}/sdb1`, '100'], dir);
      await run(join(BIN, 'swift-ring-builder'), [builder, 'rebalance'], dir);
      await writeFile(join(dir, `${ring}-server.conf`), serverConf(dir, ports[ring], ring));
    }),
  );
  await writeFile(join(dir, 'proxy-server.conf'), proxyConf(dir, ports.proxy, ports.memcached));

  const children: { name: string; child: ChildProcess; exited: Promise<void>; output: string[] }[] = [];
  const launch = (name: string, command: string, args: string[]) => {
    const child = spawn(command, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<void>((done) => child.once('close', () => done()));
    children.push({ name, child, exited, output });
  };
  launch('memcached', MEMCACHED, [
    '-l',
    '127.0.0.1',
    '-p',
    String(ports.memcached),
    '-U',
    '0',
    '-m',
    '16',
    ...(process.getuid?.() === 0 ? ['-u', 'root'] : []),
  ]);
  for (const ring of ['account', 'container', 'object'] as const) launch(ring, join(BIN, `swift-${ring}-server`), [join(dir, `${ring}-server.conf`)]);
  launch('proxy', join(BIN, 'swift-proxy-server'), [join(dir, 'proxy-server.conf')]);

  const stop = async () => {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(children.map(({ exited }) => exited));
    await rm(dir, { recursive: true, force: true });
  };
  const endpoint = `http://127.0.0.1:${ports.proxy}`;
  const client = new S3Client({
    endpoint,
    region: SWIFT_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: SWIFT_ACCESS_KEY, secretAccessKey: SWIFT_SECRET_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  // the bucket's creation is tried once every server listens, and again until it succeeds; the minute
  // counts from the servers' launch: the rings' builds before it are Python starts that end on their own, slow on a loaded machine
  const listening = async () => (await Promise.all(Object.values(ports).map(accepts))).every(Boolean);
  try {
    await until(
      'Swift did not start: no bucket',
      withinMs,
      async () => {
        if (!(await listening())) throw new Error('not every server listens yet');
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        return true;
      },
      {
        giveUp: () => {
          const gone = children.find(({ child }) => child.exitCode !== null || child.signalCode !== null);
          return gone && `${gone.name} exited: ${gone.output.join('').slice(-2000)}`;
        },
      },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    endpoint,
    bucket,
    client,
    startMs: performance.now() - started,
    pids: Object.fromEntries(children.map(({ name, child }) => [name, child.pid ?? 0])),
    env: {
      DMS_STORAGE: 's3',
      DMS_S3_ENDPOINT: endpoint,
      DMS_S3_REGION: SWIFT_REGION,
      DMS_S3_BUCKET: bucket,
      DMS_S3_ACCESS_KEY_ID: SWIFT_ACCESS_KEY,
      DMS_S3_SECRET_ACCESS_KEY: SWIFT_SECRET_KEY,
    },
    stop: async () => {
      client.destroy();
      await stop();
    },
  };
}

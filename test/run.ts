/**
 * `npm test`: installs Chromium, clamd, the text tools, redis-sentinel and Swift when a selected file needs them and they are missing
 * (helpers/chromium.ts, helpers/clamd.ts, helpers/text-tools.ts, helpers/redis-sentinel.ts, helpers/swift.ts),
 * starts the whole platform on free ports against a fresh database (TEST_DATABASE_URL,
 * else the local PostgreSQL, else an embedded one), runs the ava suite against it over HTTP, stops
 * everything, scans the platform's whole log for secrets (one more test, after all others:
 * helpers/secret-scan.ts). The whole suite then has a second pass: the file tests
 * (helpers/file-stores.ts ON_BOTH_STORES) against a platform of their own whose dms-svc and
 * dms-worker keep the files in a bucket of OpenStack Swift on loopback, each title after `[s3]`,
 * its log scanned the same way; and a third: the suite's core groups (helpers/pgbouncer.ts
 * THROUGH_PGBOUNCER) against a platform of their own whose processes reach their database through
 * PgBouncer in transaction mode (DATABASE_POOLING=transaction), each title after `[pgbouncer]`.
 * The run closes with the plain line `N passed, M failed` over all
 * passes, where M is at least 1 whenever the run failed or no test passed: a set-up that throws (no
 * database, no Redis) and each part of the teardown that fails count as failures, and the line
 * comes after the teardown.
 *
 *   npm test                       the whole suite on the folder, then its file tests on a bucket
 *   npm test -- test/list.test.ts  some files (arguments go to ava), on the folder only
 *   TEST_DMS_STORAGE=s3 npm test -- test/dms-files.test.ts      the selection on a bucket only
 *   TEST_DMS_STORAGE=both npm test -- test/dms-*.test.ts        the selection on the folder, then its file tests on a bucket
 *   TEST_DMS_STORAGE=local npm test                             the whole suite on the folder only
 *   TEST_DB_POOLER=pgbouncer npm test                           THROUGH_PGBOUNCER through PgBouncer only
 *   TEST_DB_POOLER=pgbouncer npm test -- test/crud.test.ts      the selection through PgBouncer only
 *   TEST_DB_POOLER=both npm test -- test/dms-*.test.ts          the selection direct, then its THROUGH_PGBOUNCER files through PgBouncer
 *   TEST_DB_POOLER=direct npm test                              no pass through PgBouncer
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayCallKey } from '@platform/kit/auth/gateway-call-key.ts';
import { FilePortCredential } from '@platform/kit/auth/file-port-credential.ts';
import { createFreshDatabase, resolveTestDatabase } from '../scripts/lib/test-database.ts';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';
import { startPlatform } from '../scripts/lib/processes.ts';
import { ensureConsoleBuilt } from '../scripts/lib/console-build.ts';
import { throwawayEnv } from '../scripts/lib/throwaway-env.ts';
import { ensureChromium, selectionNeedsBrowser } from './helpers/chromium.ts';
import { ensureClamd, selectionNeedsClamd } from './helpers/clamd.ts';
import { ensureTextTools, selectionNeedsTextTools } from './helpers/text-tools.ts';
import { bucketPassArgs } from './helpers/file-stores.ts';
import { ensureSwift, selectionNeedsSwift, startSwift } from './helpers/swift.ts';
import { ensurePgBouncer, pooledPassArgs, selectionNeedsPgBouncer, startPgBouncer } from './helpers/pgbouncer.ts';
import { resolveTestRedis, uniquePrefix } from './helpers/redis.ts';
import { ensureRedisSentinel, selectionNeedsSentinel } from './helpers/redis-sentinel.ts';
import { scanRunLog } from './helpers/secret-scan.ts';
import { readNotedSecrets } from './helpers/used-secrets.ts';

// No compile cache for the platforms the run starts (scripts/lib/processes.ts keeps one for npm
// start): a gateway once aborted at start in V8 (`Check failed: index < word_count()` in
// LoadIC_Miss, SIGTRAP) after the suite's many processes had written and read the shared cache at
// once, and V8 gives no guarantee that a code cache it cannot use is refused rather than crashed on
// (nodejs/node#51555, #62781). It costs each process start about 0.5 s of CPU.
process.env.NODE_DISABLE_COMPILE_CACHE = '1';

// Whatever happens below, the run ends with the closing line, printed once everything is stopped:
// a set-up that throws or a teardown that fails is a failure it counts.
let passed = 0;
let failed = 0;
let skipped = 0;
const teardown: { what: string; run: () => Promise<unknown> }[] = [];
try {
  // Redis first (REDIS_URL, else the local one, else a redis-server started here): without one the
  // run fails at once, saying how to get one.
  const redis = await resolveTestRedis(process.env);
  teardown.push({ what: 'stop Redis', run: () => redis.stop() });
  console.log(`# redis: ${redis.source} (${new URL(redis.url).host})`);

  // Chromium for the browser tests (helpers/chromium.ts), installed with apt-get when missing and a
  // selected file needs it; where it cannot be (not root), the run fails at once, saying what to run.
  if (await selectionNeedsBrowser(process.argv.slice(2), ROOT_DIR)) await ensureChromium();
  // clamd for the virus-scan tests (helpers/clamd.ts), the same way: Debian's clamav-daemon
  if (await selectionNeedsClamd(process.argv.slice(2), ROOT_DIR)) await ensureClamd();
  // poppler-utils, Tesseract and a font for the reading of files' words (helpers/text-tools.ts): dms-worker reads every upload
  if (await selectionNeedsTextTools(process.argv.slice(2), ROOT_DIR)) await ensureTextTools();
  // redis-sentinel for the failover test (helpers/redis-sentinel.ts): Debian's redis-sentinel
  if (await selectionNeedsSentinel(process.argv.slice(2), ROOT_DIR)) await ensureRedisSentinel();
  // Where dms-svc keeps the files (helpers/file-stores.ts): the whole suite runs on the folder, and
  // then the file tests again on a bucket of OpenStack Swift (helpers/swift.ts); a selection runs on
  // the folder alone. TEST_DMS_STORAGE=s3 runs the selection on the bucket alone, =both the
  // selection on the folder and its file tests on the bucket, =local the selection on the folder alone.
  const avaArgs = process.argv.slice(2);
  const selects = avaArgs.some((arg) => !arg.startsWith('-'));
  const stores = process.env.TEST_DMS_STORAGE || (selects ? 'local' : 'both');
  if (!['local', 's3', 'both'].includes(stores)) throw new Error(`TEST_DMS_STORAGE must be local, s3 or both, not ${stores}`);
  // How the platform reaches its database (helpers/pgbouncer.ts): the whole suite directly, then
  // THROUGH_PGBOUNCER through PgBouncer in transaction mode; a selection directly alone.
  // TEST_DB_POOLER=pgbouncer runs the selection (THROUGH_PGBOUNCER when none) through PgBouncer
  // alone, =both the selection directly and its THROUGH_PGBOUNCER files through PgBouncer, =direct
  // the selection directly alone.
  const pooler = process.env.TEST_DB_POOLER || (selects ? 'direct' : 'both');
  if (!['direct', 'pgbouncer', 'both'].includes(pooler)) throw new Error(`TEST_DB_POOLER must be direct, pgbouncer or both, not ${pooler}`);
  const direct = pooler !== 'pgbouncer';
  const passes: Pass[] = [];
  if (direct && stores !== 's3') passes.push({ avaArgs });
  const onBucket = !direct ? [] : stores === 's3' ? avaArgs : stores === 'both' ? bucketPassArgs(avaArgs, ROOT_DIR) : [];
  const bucketPass = direct && (stores === 's3' || onBucket.length > 0);
  // OpenStack Swift, the S3 server of the DMS_STORAGE=s3 tests: Debian's packages, the same way
  if (bucketPass || (await selectionNeedsSwift(avaArgs, ROOT_DIR))) await ensureSwift();
  if (bucketPass) passes.push({ label: '[s3]', avaArgs: onBucket, onBucket: true });
  const pooled = pooler === 'pgbouncer' && selects ? avaArgs : pooler === 'direct' ? [] : pooledPassArgs(avaArgs, ROOT_DIR);
  // PgBouncer, Debian's pgbouncer 1.18, the same way
  if (pooled.length > 0 || (await selectionNeedsPgBouncer(avaArgs, ROOT_DIR))) await ensurePgBouncer();
  if (pooled.length > 0) passes.push({ label: '[pgbouncer]', avaArgs: pooled, pooled: true });

  // the console the gateway serves (scripts/lib/console-build.ts), built when its sources changed
  await ensureConsoleBuilt((line) => console.log(`# ${line}`));

  const server = await resolveTestDatabase(process.env);
  teardown.push({ what: 'stop the database server', run: () => server.stop() });
  console.log(`# database: ${server.source} server`);

  // a pass that cannot finish (its platform does not start, its Swift does not) is one failure, and the next still runs
  for (const pass of passes) {
    try {
      const result = await runPass(pass, server.adminUrl, redis.url);
      passed += result.passed;
      failed += result.failed;
      skipped += result.skipped;
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      console.log(`# ${pass.label ? `the ${pass.label} pass` : 'the pass'} could not finish: counted as one failure`);
      failed++;
    }
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.log('# the run could not finish: counted as one failure');
  failed++;
}
// Last in, first out: the platform before its database, the database before its server.
for (const { what, run } of teardown.reverse()) {
  try {
    await run();
  } catch (error) {
    console.error(`could not ${what}:`, error instanceof Error ? error.message : error);
    console.log(`# could not ${what}: counted as one failure`);
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);

/** One pass of the suite: the ava arguments, and whether dms-svc keeps the files in a bucket. */
interface Pass {
  avaArgs: string[];
  /** Before each test title of the pass, and each line it prints about itself. */
  label?: string;
  /** Whether dms-svc keeps the pass's files in a bucket of a Swift started for it, else in the platform's folder. */
  onBucket?: boolean;
  /** Whether the platform reaches its database through a PgBouncer in transaction mode started for the pass, else directly. */
  pooled?: boolean;
}

/**
 * Runs one pass: a platform of its own (workers too) on a fresh database of `adminUrl`'s server —
 * its files in a bucket of a Swift started for it when `onBucket` — runs ava against it, stops it,
 * and scans its whole log for secrets (one more test). What it started is stopped here, or, when
 * something throws, by the run's teardown.
 */
async function runPass(pass: Pass, adminUrl: string, redisUrl: string): Promise<{ passed: number; failed: number; skipped: number }> {
  const note = (line: string) => console.log(`# ${pass.label ? `${pass.label} ` : ''}${line}`);
  const began = performance.now();
  // the suite's own dms-svc and dms-worker keep their files in a bucket of the pass's Swift
  let s3Env: Record<string, string> = {};
  if (pass.onBucket) {
    // Started once the first pass has stopped: beside its busiest minutes (a platform starting, the
    // files that start a Swift of their own) a start can take longer than its minute; then it is
    // tried once more.
    const swift = await startSwift().catch((error: unknown) => {
      note(`Swift did not start (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): once more`);
      return startSwift();
    });
    teardown.push({ what: 'stop Swift', run: () => swift.stop() });
    s3Env = swift.env;
    note(`files: DMS_STORAGE=s3, bucket ${swift.bucket} of Swift at ${swift.endpoint} (started in ${Math.round(swift.startMs)} ms)`);
  } else note("files: DMS_STORAGE=local, the platform's folder");

  const workDir = await mkdtemp(join(tmpdir(), 'platform-test-'));
  teardown.push({ what: `remove ${workDir}`, run: () => rm(workDir, { recursive: true, force: true }) });
  const logFile = join(workDir, 'platform.log');
  // the passwords the tests send, noted by each test process (helpers/used-secrets.ts)
  const secretsFile = join(workDir, 'used-secrets.jsonl');
  await writeFile(secretsFile, '');
  // the services serve as a role of the database's own that owns nothing, the migrations run as the
  // owner, the admin URL's user (docs/adr/0150-a-serving-role-apart-from-the-owner.md)
  const database = await createFreshDatabase(adminUrl, 'platform_test', { servingRole: true });
  teardown.push({ what: `drop the test database ${database.name} and its serving role`, run: () => database.drop() });
  note(`database: fresh database ${database.name}, served as its own role`);
  // the platform's processes reach it through PgBouncer in transaction mode, migrations included;
  // the tests' own connections beneath the API (helpers/db.ts) reach it directly, as the owner
  let servingUrl = database.servingUrl;
  let ownerUrl = database.url;
  let poolingEnv: Record<string, string> = {};
  if (pass.pooled) {
    const bouncer = await startPgBouncer(adminUrl, { alsoFor: [database.servingUrl] });
    teardown.push({ what: 'stop PgBouncer', run: () => bouncer.stop() });
    servingUrl = bouncer.urlOf(database.servingUrl);
    ownerUrl = bouncer.urlOf(database.url);
    poolingEnv = { DATABASE_POOLING: 'transaction' };
    note(`database: through PgBouncer in transaction mode on 127.0.0.1:${bouncer.port} (DATABASE_POOLING=transaction)`);
  }

  // Rate limits through the real Redis, under a key prefix of this run, and high enough that only
  // the edge tests (which start gateways of their own with low limits) ever meet them.
  const { env, secrets } = throwawayEnv(servingUrl, workDir, {
    DATABASE_OWNER_URL: ownerUrl,
    BCRYPT_ROUNDS: '4',
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: uniquePrefix('test'),
    RATE_LIMIT_PUBLIC: '100000',
    RATE_LIMIT_API_KEY: '100000',
    RATE_LIMIT_JWT: '100000',
    // lastSeenAt is sent to core in batches; often here, so a test sees it move.
    SESSION_SEEN_FLUSH_MS: '200',
    // access lines too: the request-id tests read them, and the closing scan looks at everything
    LOG_LEVEL: 'info',
    // webhook receivers of the tests listen on loopback; retries and leases short enough to watch
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '200,400,800',
    WEBHOOK_LEASE_MS: '3000',
    WEBHOOK_TIMEOUT_MS: '2000',
    // longer than the schedule above takes (1.4 s), so only an endpoint failing across deliveries is disabled
    WEBHOOK_DISABLE_AFTER_MS: '2500',
    // tracing, when the run's own environment asks for it (OTEL_EXPORTER_OTLP_ENDPOINT=… npm test):
    // the whole suite against traced processes (docs/adr/0092-tracing-with-opentelemetry-on-only.md)
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('OTEL_'))),
    // retention and the storage sweep in slots of a year: run once as the worker starts, before any
    // test, never behind a test's back (the tests run them with RunDmsRetention and SweepDmsStorage)
    DMS_RETENTION_INTERVAL_SECONDS: String(365 * 86_400),
    // expired resumable uploads are swept often (by dms-svc's worker), so a test sees one go (test/dms-tus.test.ts)
    DMS_TUS_SWEEP_INTERVAL_SECONDS: '1',
    // imports begin within half a second of their start, not two: the tests wait on them
    JOB_POLL_INTERVAL_MS: '500',
    ...s3Env,
    ...poolingEnv,
  });

  // with the workers: the tests see retention and the sweeps run from the job queue
  const platform = await startPlatform({ env, ports: 'free', log: { file: logFile }, workers: true });
  teardown.push({ what: 'stop the platform', run: () => platform.stop() });
  note(`platform: ${platform.url}`);
  // one request of the run's own, so that the closing scan always has an access line to find
  await fetch(`${platform.url}/api/health`).then((res) => res.body?.cancel());
  const testsBegan = performance.now();
  const summary = await runAva(pass.avaArgs, pass.label, {
    ...process.env,
    PLATFORM_URL: platform.url,
    PLATFORM_API_KEY: secrets.CORE_API_KEY,
    PLATFORM_JWT_SECRET: secrets.JWT_SECRET,
    PLATFORM_ADMIN_USER: 'admin',
    PLATFORM_ADMIN_PASSWORD: secrets.ADMIN_PASSWORD,
    PLATFORM_DATABASE_URL: database.url,
    PLATFORM_CORE_GRPC: platform.env.CORE_GRPC_ADDR ?? '',
    PLATFORM_BPM_GRPC: platform.env.BPM_GRPC_ADDR ?? '',
    PLATFORM_DMS_GRPC: platform.env.DMS_GRPC_ADDR ?? '',
    PLATFORM_ENV: JSON.stringify(platform.env),
    PLATFORM_METRICS: JSON.stringify(platform.metrics),
    PLATFORM_LOG_FILE: logFile,
    PLATFORM_SECRETS_FILE: secretsFile,
  });
  const counted = failures(summary);
  note(`tests done in ${Math.round((performance.now() - testsBegan) / 1000)} s`);
  // the log is complete once every process has stopped and the launcher has closed the file
  await platform.stop();
  const log = await readFile(logFile, 'utf8').catch(() => '');
  // the gateway's credentials, on dms-svc's file port and to core-svc, are derived from their secrets: as secret as they
  const filePort = new FilePortCredential(secrets.DMS_FILE_PORT_SECRET).value;
  const gatewayCall = new GatewayCallKey(secrets.GATEWAY_CALL_KEY).credential;
  const scan = scanRunLog(
    log,
    { ...secrets, FILE_PORT_CREDENTIAL: filePort, GATEWAY_CALL_CREDENTIAL: gatewayCall },
    readNotedSecrets(await readFile(secretsFile, 'utf8')),
  );
  console.log(scan.report.map((line) => labelled(line, pass.label)).join('\n'));
  if (!scan.passed) counted.count++;
  if (counted.count > 0) {
    // warnings, errors and whatever is not a log line (a crash), not the access lines around them
    const notable = log.split('\n').filter((line) => line !== '' && !/"level":"(info|debug)"/.test(line));
    note(
      `last warnings and errors of the platform log:\n${notable
        .slice(-40)
        .map((l) => `#   ${l}`)
        .join('\n')}`,
    );
  }
  for (const reason of counted.reasons) note(reason);
  note(`pass done in ${Math.round((performance.now() - began) / 1000)} s, its platform started and stopped included`);
  return { passed: summary.passed + (scan.passed ? 1 : 0), failed: counted.count, skipped: summary.skipped };
}

interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  /** ava's own closing count `# fail N` (failed, crashed and never-run tests), when it printed one. */
  reportedFailed?: number;
  code: number;
}

/**
 * The failures the closing line shows. The TAP lines alone can say "2 passed, 0 failed" for a run
 * that failed: ava's TAP reporter throws while reporting a test that timed out or a worker that
 * called process.exit(), and then exits non-zero without a `not ok` line, a plan or a summary. So
 * a failed run, and a run in which no test passed, always shows at least one failure, and says why.
 */
function failures(summary: Summary): { count: number; reasons: string[] } {
  const reasons: string[] = [];
  let count = Math.max(summary.failed, summary.reportedFailed ?? 0);
  if (count > summary.failed) reasons.push(`ava counts ${count} failed (crashed or never run included), ${summary.failed} of them reported as \`not ok\``);
  if (count === 0) {
    if (summary.passed + summary.skipped === 0) reasons.push('no test ran (no test file matched, or the files declare no test): counted as one failure');
    else if (summary.code !== 0) {
      reasons.push(
        `ava exited with code ${summary.code} but reported no failed test (its TAP reporter drops a test that timed out and ` +
          "a worker that called process.exit(); see ava's own output above): counted as one failure",
      );
    } else if (summary.passed === 0) reasons.push('every test was skipped: counted as one failure');
    if (reasons.length > 0) count = 1;
  }
  return { count, reasons };
}

/** A TAP line with `label` before its test's title: `ok 3 - [s3] dms-files › …`. */
function labelled(line: string, label: string | undefined): string {
  return label ? line.replace(/^((?:not )?ok(?: \d+)? - )/, `$1${label} `) : line;
}

/** Runs ava with TAP output, echoing it (each test title after `label`, when given), and counts the results itself. */
function runAva(args: string[], label: string | undefined, childEnv: NodeJS.ProcessEnv): Promise<Summary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT_DIR, 'node_modules/ava/entrypoints/cli.js'), '--tap', ...args], {
      cwd: ROOT_DIR,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const summary: Summary = { passed: 0, failed: 0, skipped: 0, code: 0 };
    let pending = '';
    const count = (line: string) => {
      if (/^not ok \d+/.test(line)) summary.failed++;
      else if (/^ok \d+.*# (SKIP|TODO)/i.test(line)) summary.skipped++;
      else if (/^ok \d+/.test(line)) summary.passed++;
      else if (/^# fail \d+\s*$/.test(line)) summary.reportedFailed = Number(line.trim().slice(7));
    };
    // whole lines, so that each title can take the label
    const echo = (line: string) => {
      count(line);
      process.stdout.write(`${labelled(line, label)}\n`);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(echo);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (pending !== '') echo(pending);
      summary.code = code ?? (signal ? 128 : 1);
      resolve(summary);
    });
  });
}

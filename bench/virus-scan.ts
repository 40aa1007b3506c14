/**
 * Scenario virus-scan: the same uploads (POST /api/dms-file/upload through the gateway: 20 × 10 MiB
 * one after the other, then one 200 MiB) on a platform whose dms-svc scans every upload with clamd
 * (CLAMD_ADDRESS over TCP) against one that does not, in the same run, the two targets alternating
 * from round to round. Prints, per target, MB/s (10^6 bytes per second) of each set and the CPU
 * seconds per 100 MB of dms-svc, the gateway and clamd; then the throughput ratio scanned/plain (the
 * median of the rounds' ratios) and the CPU clamd and dms-svc add per MB. No target: the figures
 * are reported (docs/adr/0095-virus-scanning-in-storeupload-before.md).
 *
 * clamd is Debian's clamav-daemon started by test/helpers/clamd.ts with one test signature as its
 * whole database (the test marker; every upload here is clean): a production clamd with the full
 * signature set costs more per byte, which this scenario does not reach (no signature download
 * here). The scanning dms-svc and its gateway run beside the bench platform (the same database,
 * core-svc and storage folder), as the tests start theirs.
 *
 *   npm run bench -- virus-scan
 *   BENCH_ROUNDS=2 BENCH_SMALL_COUNT=4 BENCH_LARGE_MIB=32 node bench/virus-scan.ts   (a quick check)
 *
 * Env: BENCH_ROUNDS (3, at least 2), BENCH_SMALL_COUNT (20), BENCH_SMALL_MIB (10), BENCH_LARGE_MIB
 * (200), TEST_DATABASE_URL / TEST_EMBEDDED_PG, REDIS_URL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform } from '../scripts/lib/processes.ts';
import { startClamd } from '../test/helpers/clamd.ts';
import { READY_STUB } from '../test/helpers/stand-in.ts';
import {
  BenchError,
  cpuSnapshot,
  cpuUsed,
  expectStatus,
  fmt,
  generateFile,
  http,
  MIB,
  multipartUpload,
  login,
  median,
  onCleanup,
  printTable,
  runScenario,
  settingsFromEnv,
  startBenchPlatform,
} from './lib.ts';

const TENANT = 1;
type Target = 'plain' | 'scanned';
const TARGETS: readonly Target[] = ['plain', 'scanned'];
type UploadSet = 'small' | 'large';

interface Measured {
  bytes: number;
  seconds: number;
  /** CPU seconds per watched process during the set. */
  cpu: Record<string, number>;
}

await runScenario('virus-scan: uploads through the gateway with clamd scanning them vs without', async () => {
  const { rounds } = settingsFromEnv();
  if (rounds < 2) throw new BenchError(`BENCH_ROUNDS=${rounds}: this scenario alternates its targets over at least 2 rounds`);
  const smallCount = whole('BENCH_SMALL_COUNT', 20);
  const smallMib = whole('BENCH_SMALL_MIB', 10);
  const largeMib = whole('BENCH_LARGE_MIB', 200);

  const workDir = await mkdtemp(join(tmpdir(), 'virus-scan-bench-'));
  onCleanup(() => rm(workDir, { recursive: true, force: true }));
  const small = join(workDir, 'small.bin');
  const large = join(workDir, 'large.bin');
  await generateFile(small, smallMib);
  await generateFile(large, largeMib);

  const clamd = await startClamd({ streamMaxLength: (largeMib + 16) * MIB });
  onCleanup(() => clamd.stop());
  console.log(`# clamd ${clamd.tcpAddress} (pid ${clamd.pid}), one test signature, answered PING ${fmt(clamd.startMs)} ms after spawn`);

  const bench = await startBenchPlatform();
  const env = bench.platform.env;
  const scanning = await startPlatform({
    env: { ...env, GATEWAY_PORT: '0', DMS_GRPC_ADDR: '', DMS_HTTP_ADDR: '', DMS_METRICS_PORT: '0', CLAMD_ADDRESS: clamd.tcpAddress },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB },
    ports: 'free',
    log: { file: bench.logFile },
  });
  onCleanup(() => scanning.stop());
  const storageDir = env.DMS_STORAGE_DIR ?? join(env.DATA_DIR ?? '', 'files');
  const targets: Record<Target, { url: string; pids: Record<string, number> }> = {
    plain: { url: bench.url, pids: { 'dms-svc': bench.platform.pids['dms-svc'], gateway: bench.platform.pids.gateway } },
    scanned: { url: scanning.url, pids: { 'dms-svc': scanning.pids['dms-svc'], gateway: scanning.pids.gateway, clamd: clamd.pid } },
  };
  const token = await login(bench);
  const auth = { authorization: `Bearer ${token}` };
  console.log(`# plain ${targets.plain.url}, scanned ${targets.scanned.url}; ${smallCount} × ${smallMib} MiB, then 1 × ${largeMib} MiB per target per round`);

  const uploadAll = async (target: Target, path: string, count: number, mib: number): Promise<Measured> => {
    const before = cpuSnapshot(targets[target].pids);
    const started = process.hrtime.bigint();
    const stored: { fileId: number; storedFileName: string }[] = [];
    for (let i = 0; i < count; i++) stored.push(await multipartUpload(`${targets[target].url}/api/dms-file/upload`, auth, path, mib * MIB, TENANT));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = Object.fromEntries(Object.entries(cpuUsed(before, cpuSnapshot(targets[target].pids))).map(([name, ms]) => [name, ms / 1000]));
    for (const file of stored) {
      await expectStatus(`DELETE /api/dms-file/${file.fileId}`, http('DELETE', `${bench.url}/api/dms-file/${file.fileId}`, { headers: auth }), 204);
      await rm(join(storageDir, file.storedFileName), { force: true });
    }
    return { bytes: count * mib * MIB, seconds, cpu };
  };

  // warm-up (discarded): two small uploads per target
  for (const target of TARGETS) await uploadAll(target, small, 2, smallMib);
  const logMark = await bench.logMark();

  const results: Record<string, Measured[]> = {};
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? TARGETS : [...TARGETS].reverse();
    for (const target of order) {
      for (const [set, path, count, mib] of [
        ['small', small, smallCount, smallMib],
        ['large', large, 1, largeMib],
      ] as const) {
        const measured = await uploadAll(target, path, count, mib);
        (results[`${set} ${target}`] ??= []).push(measured);
        const cpu = Object.entries(measured.cpu)
          .map(([name, s]) => `${name} ${fmt(s, 2)}`)
          .join(', ');
        console.log(
          `# round ${round} ${set.padEnd(5)} ${target.padEnd(7)} ${fmt(mbPerSec(measured), 1).padStart(7)} MB/s (${fmt(measured.seconds, 2)} s; CPU s ${cpu})`,
        );
      }
    }
  }

  const sets: readonly UploadSet[] = ['small', 'large'];
  const perHundredMb = (m: Measured, name: string): number => ((m.cpu[name] ?? NaN) / (m.bytes / 1e6)) * 100;
  const med = (key: string, of: (m: Measured) => number): number => median((results[key] ?? []).map(of));
  console.log(`\nMedian of ${rounds} rounds (CPU s per 100 MB uploaded):`);
  printTable(
    ['set', 'target', 'MB/s', 'dms-svc', 'gateway', 'clamd', 'bench client'],
    sets.flatMap((set) =>
      TARGETS.map((target) => {
        const key = `${set} ${target}`;
        return [
          set === 'small' ? `${smallCount} × ${smallMib} MiB` : `1 × ${largeMib} MiB`,
          target,
          fmt(med(key, mbPerSec), 1),
          fmt(
            med(key, (m) => perHundredMb(m, 'dms-svc')),
            2,
          ),
          fmt(
            med(key, (m) => perHundredMb(m, 'gateway')),
            2,
          ),
          target === 'scanned'
            ? fmt(
                med(key, (m) => perHundredMb(m, 'clamd')),
                2,
              )
            : '-',
          fmt(
            med(key, (m) => perHundredMb(m, 'bench client')),
            2,
          ),
        ];
      }),
    ),
  );
  for (const set of sets) {
    const ratios = (results[`${set} scanned`] ?? []).map((m, i) => mbPerSec(m) / mbPerSec(results[`${set} plain`]?.[i] ?? m));
    const added = (name: string) =>
      median(
        (results[`${set} scanned`] ?? []).map((m, i) => (((m.cpu[name] ?? NaN) - (results[`${set} plain`]?.[i]?.cpu[name] ?? NaN)) / (m.bytes / 1e6)) * 1000),
      );
    console.log(
      `${set}: throughput scanned/plain ${fmt(median(ratios), 2)} (rounds ${ratios.map((r) => fmt(r, 2)).join(', ')}); ` +
        `CPU ms per MB: clamd ${fmt(median((results[`${set} scanned`] ?? []).map((m) => ((m.cpu.clamd ?? NaN) / (m.bytes / 1e6)) * 1000)), 2)}, ` +
        `dms-svc added ${fmt(added('dms-svc'), 2)}`,
    );
  }
  console.log('targets: none (the figures are reported)');
  const logged = await bench.logSince(logMark);
  if (logged) console.log(`\n# the platform logged during the rounds (LOG_LEVEL=warn), last lines:\n${logged}`);
});

function whole(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new BenchError(`${name}=${raw}: expected a whole number >= 1`);
  return value;
}

function mbPerSec(m: Measured): number {
  return m.bytes / 1e6 / m.seconds;
}

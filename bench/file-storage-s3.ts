/**
 * Scenario file-storage-s3: a 1 GiB upload (POST /api/dms-file/upload, multipart, through the
 * gateway) and its signed download on DMS_STORAGE=s3 against the same on the local folder, in the
 * same run (docs/adr/0144-files-on-s3-compatible-storage.md). The S3 server is OpenStack Swift with
 * s3api on loopback (test/helpers/swift.ts: Debian's packages); the S3 platform is a gateway and a
 * dms-svc of their own beside the bench platform's, on the same database. Targets alternate order
 * each round; each ratio (S3 over local, MB/s) is judged on the median of the rounds' ratios:
 * upload ≥ 0.7 and download ≥ 0.7. Also the peak RSS growth of dms-svc during each transfer (the
 * multipart parts in flight are held in memory: at most 32 MiB) and the CPU seconds per GiB.
 * A missed target makes the scenario exit 3 (lib.ts judge).
 *
 *   npm run bench -- file-storage-s3
 *   BENCH_ROUNDS=2 BENCH_FILE_MIB=64 node bench/file-storage-s3.ts     (a quick check that it works)
 *
 * Env: BENCH_ROUNDS (3, at least 2), BENCH_FILE_MIB (1024), TEST_DATABASE_URL / TEST_EMBEDDED_PG,
 * REDIS_URL. Needs Swift installed (as root the scenario installs it, as the tests do).
 */
import { createHash, createHmac } from 'node:crypto';
import { readFileSync, statfsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { startPlatform } from '../scripts/lib/processes.ts';
import { READY_STUB } from '../test/helpers/stand-in.ts';
import { ensureSwift, startSwift } from '../test/helpers/swift.ts';
import {
  BenchError,
  cpuSnapshot,
  cpuUsed,
  expectStatus,
  fmt,
  generateFile,
  http,
  judge,
  login,
  median,
  MIB,
  multipartUpload,
  onCleanup,
  printTable,
  runScenario,
  settingsFromEnv,
  startBenchPlatform,
} from './lib.ts';

/** S3 at least this share of the local folder's MB/s, upload and download. */
const TARGET_RATIO = 0.7;
const RSS_SAMPLE_MS = 100;
const TENANT = 1;
type Store = 'local' | 's3';
const STORES: readonly Store[] = ['local', 's3'];

interface Transfer {
  mbPerSec: number;
  rssGrowth: number;
  cpuSeconds: Record<string, number>;
}

await runScenario('file-storage-s3: 1 GiB upload and download on an S3 bucket (Swift on loopback) vs the local folder', async () => {
  const { rounds } = settingsFromEnv();
  if (rounds < 2) throw new BenchError(`BENCH_ROUNDS=${rounds}: this scenario alternates its targets over at least 2 rounds`);
  const mib = Number(process.env.BENCH_FILE_MIB ?? 1024);
  if (!Number.isInteger(mib) || mib < 1) throw new BenchError(`BENCH_FILE_MIB=${process.env.BENCH_FILE_MIB}: expected a whole number >= 1`);
  const size = mib * MIB;

  const workDir = await mkdtemp(join(tmpdir(), 's3-bench-'));
  onCleanup(() => rm(workDir, { recursive: true, force: true }));
  const fs = statfsSync(workDir);
  // the source, a local upload, and Swift's copy of one upload (its parts and the object)
  if (fs.bavail * fs.bsize < 5 * size)
    throw new BenchError(`${fmt((fs.bavail * fs.bsize) / MIB)} MiB free under ${workDir}: about ${fmt((5 * size) / MIB)} MiB needed`);
  const source = join(workDir, 'source.bin');
  const sha256 = await generateFile(source, mib);

  await ensureSwift();
  const swift = await startSwift();
  onCleanup(() => swift.stop());
  console.log(`# Swift ${swift.endpoint}, bucket ${swift.bucket}, made in ${fmt(swift.startMs)} ms`);

  const bench = await startBenchPlatform();
  const env = bench.platform.env;
  const s3 = await startPlatform({
    env: { ...env, ...swift.env, GATEWAY_PORT: '0', DMS_GRPC_ADDR: '', DMS_HTTP_ADDR: '', DMS_METRICS_PORT: '0' },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB },
    ports: 'free',
    log: { file: bench.logFile },
  });
  onCleanup(() => s3.stop());
  const secret = env.DMS_URL_SECRET ?? '';
  const storageDir = env.DMS_STORAGE_DIR ?? join(env.DATA_DIR ?? '', 'files');
  const targets: Record<Store, { url: string; pids: Record<string, number> }> = {
    local: { url: bench.url, pids: { 'dms-svc': bench.platform.pids['dms-svc'], gateway: bench.platform.pids.gateway } },
    s3: { url: s3.url, pids: { 'dms-svc': s3.pids['dms-svc'], gateway: s3.pids.gateway } },
  };
  const token = await login(bench);
  const auth = { authorization: `Bearer ${token}` };
  const remove = async (store: Store, file: { fileId: number; storedFileName: string }) => {
    await expectStatus(`DELETE /api/dms-file/${file.fileId}`, http('DELETE', `${bench.url}/api/dms-file/${file.fileId}`, { headers: auth }), 204);
    if (store === 'local') await rm(join(storageDir, file.storedFileName), { force: true });
    else await swift.client.send(new DeleteObjectCommand({ Bucket: swift.bucket, Key: file.storedFileName }));
  };

  // warm-up (discarded): one small upload and download per store
  const warm = join(workDir, 'warm.bin');
  const warmMib = Math.min(64, mib);
  await generateFile(warm, warmMib);
  for (const store of STORES) {
    const file = await multipartUpload(`${targets[store].url}/api/dms-file/upload`, auth, warm, warmMib * MIB, TENANT);
    await download(signedUrl(targets[store].url, secret, file.fileId));
    await remove(store, file);
  }
  await rm(warm, { force: true });
  const logMark = await bench.logMark();

  const results: Record<string, Transfer[]> = {};
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? STORES : [...STORES].reverse();
    for (const store of order) {
      const pids = targets[store].pids;
      const up = await timed(pids, size, () => multipartUpload(`${targets[store].url}/api/dms-file/upload`, auth, source, size, TENANT));
      const down = await timed(pids, size, () => download(signedUrl(targets[store].url, secret, up.answer.fileId)));
      if (down.answer.bytes !== size || down.answer.sha256 !== sha256)
        throw new BenchError(`download ${store}: ${down.answer.bytes} bytes, sha256 ${down.answer.sha256}`);
      (results[`upload ${store}`] ??= []).push(up.transfer);
      (results[`download ${store}`] ??= []).push(down.transfer);
      console.log(
        `# round ${round} ${store.padEnd(5)} upload ${fmt(up.transfer.mbPerSec, 1)} MB/s (dms-svc RSS +${fmt(up.transfer.rssGrowth / MIB, 1)} MiB), ` +
          `download ${fmt(down.transfer.mbPerSec, 1)} MB/s (dms-svc RSS +${fmt(down.transfer.rssGrowth / MIB, 1)} MiB); sha256 matches`,
      );
      await remove(store, up.answer);
    }
  }

  const perRound = (kind: string): number[] => (results[`${kind} s3`] ?? []).map((t, i) => t.mbPerSec / (results[`${kind} local`]?.[i]?.mbPerSec ?? NaN));
  const med = (key: string, of: (t: Transfer) => number): number => median((results[key] ?? []).map(of));
  console.log(`\nMedian of ${rounds} rounds, ${fmt(mib)} MiB each:`);
  printTable(
    ['transfer', 'MB/s', 'dms-svc RSS growth MiB (max)', 'dms-svc CPU s/GiB', 'gateway CPU s/GiB'],
    ['upload local', 'upload s3', 'download local', 'download s3'].map((key) => [
      key,
      fmt(
        med(key, (t) => t.mbPerSec),
        1,
      ),
      fmt(Math.max(...(results[key] ?? []).map((t) => t.rssGrowth)) / MIB, 1),
      fmt(
        med(key, (t) => (t.cpuSeconds['dms-svc'] ?? NaN) / (size / 1024 ** 3)),
        2,
      ),
      fmt(
        med(key, (t) => (t.cpuSeconds.gateway ?? NaN) / (size / 1024 ** 3)),
        2,
      ),
    ]),
  );
  const upRatio = median(perRound('upload'));
  const downRatio = median(perRound('download'));
  console.log(
    `\nS3/local, median of the rounds' ratios: upload ${fmt(upRatio, 2)} (rounds ${perRound('upload')
      .map((r) => fmt(r, 2))
      .join(', ')}), download ${fmt(downRatio, 2)} (rounds ${perRound('download')
      .map((r) => fmt(r, 2))
      .join(', ')})`,
  );
  console.log(
    `targets: upload ratio >= ${fmt(TARGET_RATIO, 2)}: ${judge('upload ratio', upRatio >= TARGET_RATIO)}; ` +
      `download ratio >= ${fmt(TARGET_RATIO, 2)}: ${judge('download ratio', downRatio >= TARGET_RATIO)}`,
  );
  const logged = await bench.logSince(logMark);
  if (logged) console.log(`\n# the platform logged during the rounds (LOG_LEVEL=warn), last lines:\n${logged}`);
});

/** VmRSS of a process in bytes (NaN when gone). */
function rssOf(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? NaN : Number(kb) * 1024;
  } catch {
    return NaN;
  }
}

/** Runs one transfer of `bytes`, timing it, sampling dms-svc's RSS and counting each process's CPU. */
async function timed<T>(pids: Record<string, number>, bytes: number, work: () => Promise<T>): Promise<{ transfer: Transfer; answer: T }> {
  const dms = pids['dms-svc'] ?? 0;
  const before = rssOf(dms);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(dms))), RSS_SAMPLE_MS);
  const cpuBefore = cpuSnapshot(pids);
  const started = process.hrtime.bigint();
  let answer: T;
  try {
    answer = await work();
  } finally {
    clearInterval(timer);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuSeconds = Object.fromEntries(Object.entries(cpuUsed(cpuBefore, cpuSnapshot(pids))).map(([name, ms]) => [name, ms / 1000]));
  return { transfer: { mbPerSec: bytes / 1e6 / seconds, rssGrowth: Math.max(peak, rssOf(dms)) - before, cpuSeconds }, answer };
}

/** The signed download URL of file `id` under `base` (docs/interface.md#files). */
function signedUrl(base: string, secret: string, id: number): string {
  const expires = Math.floor(Date.now() / 1000) + 3600;
  const token = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}:${expires}:false`).digest('base64url');
  return `${base}/api/dms-file/download/${id}?${new URLSearchParams({ token, expires: String(expires), inline: 'false' })}`;
}

/** GET of a signed download, hashed as it arrives (the same client for both stores). */
function download(url: string): Promise<{ bytes: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new BenchError(`GET download: HTTP ${res.statusCode}`));
        return;
      }
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ bytes, sha256: hash.digest('hex') }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Scenario file-storage-s3: a 1 GiB upload (POST /api/dms-file/upload, multipart, through the
 * gateway) and its signed download on DMS_STORAGE=s3 against the same on the local folder, in the
 * same run (docs/adr/0144-files-on-s3-compatible-storage.md). The S3 server is OpenStack Swift with
 * s3api on loopback (test/helpers/swift.ts: Debian's packages); the S3 platform is a gateway and a
 * dms-svc of their own beside the bench platform's, on the same database. Targets alternate order
 * each round; each ratio (S3 over local, MB/s) is judged on the median of the rounds' ratios:
 * upload ≥ 0.7 and download ≥ 0.7. Also the peak RSS growth of dms-svc during each transfer (the
 * multipart parts in flight are held in memory: at most 32 MiB) and the CPU seconds per GiB of
 * dms-svc, the gateway, Swift's proxy and object server (on a bucket) and the load generator: the
 * Swift servers share the machine's cores, so their share says how much of the bucket's figure is
 * the store's own. The download is read as file-transfer's is (lib/transfers.ts: the socket read
 * into one reusable buffer), so the load generator takes as little of the cores as it can.
 * BENCH_CPU_PROF profiles the bucket's dms-svc and gateway too. A missed target makes the scenario
 * exit 3 (lib.ts judge).
 *
 *   npm run bench -- file-storage-s3
 *   BENCH_ROUNDS=2 BENCH_FILE_MIB=64 node bench/file-storage-s3.ts     (a quick check that it works)
 *
 * Env: BENCH_ROUNDS (3, at least 2), BENCH_FILE_MIB (1024), TEST_DATABASE_URL / TEST_EMBEDDED_PG,
 * REDIS_URL. Needs Swift installed (as root the scenario installs it, as the tests do).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { startPlatform } from '../scripts/lib/processes.ts';
import { READY_STUB } from '../test/helpers/stand-in.ts';
import { ensureSwift, startSwift } from '../test/helpers/swift.ts';
import {
  BenchError,
  downloadFile,
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
  signedDownloadUrl,
  sourceFile,
  startBenchPlatform,
  timedTransfer,
  type Transfer,
} from './lib.ts';

/** S3 at least this share of the local folder's MB/s, upload and download. */
const TARGET_RATIO = 0.7;
const TENANT = 1;
type Store = 'local' | 's3';
const STORES: readonly Store[] = ['local', 's3'];

await runScenario('file-storage-s3: 1 GiB upload and download on an S3 bucket (Swift on loopback) vs the local folder', async () => {
  // the source, a local upload, and Swift's copy of one upload (its parts and the object)
  const { rounds, mib, size, workDir, path: source, sha256 } = await sourceFile('s3-bench', 5);

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
    execArgv: bench.execArgv,
  });
  onCleanup(() => s3.stop());
  const secret = env.DMS_URL_SECRET ?? '';
  const storageDir = env.DMS_STORAGE_DIR ?? join(env.DATA_DIR ?? '', 'files');
  const targets: Record<Store, { url: string; pids: Record<string, number> }> = {
    local: { url: bench.url, pids: { 'dms-svc': bench.platform.pids['dms-svc'], gateway: bench.platform.pids.gateway } },
    s3: {
      url: s3.url,
      pids: { 'dms-svc': s3.pids['dms-svc'], gateway: s3.pids.gateway, 'swift-proxy': swift.pids.proxy ?? 0, 'swift-object': swift.pids.object ?? 0 },
    },
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
    await downloadFile(signedDownloadUrl(targets[store].url, secret, file.fileId));
    await remove(store, file);
  }
  await rm(warm, { force: true });
  const logMark = await bench.logMark();

  const results: Record<string, Transfer[]> = {};
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? STORES : [...STORES].reverse();
    for (const store of order) {
      const pids = targets[store].pids;
      const up = await timedTransfer(pids, size, () => multipartUpload(`${targets[store].url}/api/dms-file/upload`, auth, source, size, TENANT));
      const down = await timedTransfer(pids, size, () => downloadFile(signedDownloadUrl(targets[store].url, secret, up.answer.fileId)));
      if (down.answer.bytes !== size || down.answer.sha256 !== sha256)
        throw new BenchError(`download ${store}: ${down.answer.bytes} bytes, sha256 ${down.answer.sha256}`);
      (results[`upload ${store}`] ??= []).push(up.transfer);
      (results[`download ${store}`] ??= []).push(down.transfer);
      console.log(
        `# round ${round} ${store.padEnd(5)} upload ${fmt(up.transfer.mbPerSec, 1)} MB/s (dms-svc RSS +${fmt((up.transfer.rssGrowth['dms-svc'] ?? NaN) / MIB, 1)} MiB), ` +
          `download ${fmt(down.transfer.mbPerSec, 1)} MB/s (dms-svc RSS +${fmt((down.transfer.rssGrowth['dms-svc'] ?? NaN) / MIB, 1)} MiB); sha256 matches`,
      );
      await remove(store, up.answer);
    }
  }

  const perRound = (kind: string): number[] => (results[`${kind} s3`] ?? []).map((t, i) => t.mbPerSec / (results[`${kind} local`]?.[i]?.mbPerSec ?? NaN));
  const med = (key: string, of: (t: Transfer) => number): number => median((results[key] ?? []).map(of));
  console.log(`\nMedian of ${rounds} rounds, ${fmt(mib)} MiB each:`);
  const perGib = (key: string, name: string): string =>
    fmt(
      med(key, (t) => (t.cpuSeconds[name] ?? NaN) / (size / 1024 ** 3)),
      2,
    );
  printTable(
    [
      'transfer',
      'MB/s',
      'dms-svc RSS growth MiB (max)',
      'dms-svc CPU s/GiB',
      'gateway CPU s/GiB',
      'Swift proxy CPU s/GiB',
      'Swift object CPU s/GiB',
      'client CPU s/GiB',
    ],
    ['upload local', 'upload s3', 'download local', 'download s3'].map((key) => [
      key,
      fmt(
        med(key, (t) => t.mbPerSec),
        1,
      ),
      fmt(Math.max(...(results[key] ?? []).map((t) => t.rssGrowth['dms-svc'] ?? NaN)) / MIB, 1),
      perGib(key, 'dms-svc'),
      perGib(key, 'gateway'),
      key.endsWith('s3') ? perGib(key, 'swift-proxy') : '-',
      key.endsWith('s3') ? perGib(key, 'swift-object') : '-',
      perGib(key, 'bench client'),
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

/**
 * Scenario tus-upload: a 1 GiB resumable upload by tus 1.0.0 (POST /api/dms-file/tus, then one
 * PATCH of the whole file, as tus-js-client sends it by default: its chunkSize is unbounded)
 * against the multipart upload (POST /api/dms-file/upload) of the same file, both through the
 * gateway with the same bearer token, in the same run. Prints MB/s (10^6 bytes per second) of each
 * per round (the order alternating), the medians, and the CPU seconds of the gateway and dms-svc.
 * Target: tus ≥ 0.8 × multipart (the median of the rounds' ratios); a miss exits 3 (lib.ts judge).
 * Each stored file's checksum is compared with the source's SHA-256, and the files are deleted
 * (soft, and their bytes) after each round.
 *
 *   npm run bench -- tus-upload
 *   BENCH_ROUNDS=2 BENCH_FILE_MIB=64 node bench/tus-upload.ts     (a quick check that it works)
 *
 * Env: BENCH_ROUNDS (3, at least 2), BENCH_FILE_MIB (1024: exactly 1 GiB, which the default
 * DMS_MAX_UPLOAD_BYTES admits), TEST_DATABASE_URL / TEST_EMBEDDED_PG, REDIS_URL.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BenchError,
  expectStatus,
  fmt,
  generateFile,
  http,
  MIB,
  multipartUpload,
  sendFile,
  judge,
  login,
  median,
  printTable,
  runScenario,
  sourceFile,
  startBenchPlatform,
  timedTransfer,
} from './lib.ts';

/** tus at least this share of the multipart upload's MB/s. */
const TARGET_RATIO = 0.8;
const TENANT = 1;
type Way = 'tus' | 'multipart';
const WAYS: readonly Way[] = ['tus', 'multipart'];

interface Measured {
  mbPerSec: number;
  cpu: Record<string, number>;
  fileId: number;
}

await runScenario('tus-upload: 1 GiB by tus (one PATCH) vs the multipart upload, through the gateway', async () => {
  // the source and the two uploads of a round, with room to spare
  const { rounds, mib, size, workDir, path: source, sha256 } = await sourceFile('tus-bench', 4);

  const platform = await startBenchPlatform();
  const env = platform.platform.env;
  const storageDir = env.DMS_STORAGE_DIR ?? join(env.DATA_DIR ?? '', 'files');
  const pids = { gateway: platform.platform.pids.gateway, 'dms-svc': platform.platform.pids['dms-svc'] };
  const auth = { authorization: `Bearer ${await login(platform)}` };
  console.log(`# source ${fmt(mib)} MiB, sha256 ${sha256}; gateway ${platform.url}; storage ${storageDir}`);

  const upload = (way: Way, path: string, bytes: number) =>
    way === 'tus'
      ? tusUpload(platform.url, auth, path, bytes)
      : multipartUpload(`${platform.url}/api/dms-file/upload`, auth, path, bytes, TENANT).then((answer) => answer.fileId);
  const remove = async (fileId: number) => {
    const got = await expectStatus(`GET /api/dms-file/${fileId}`, http('GET', `${platform.url}/api/dms-file/${fileId}`, { headers: auth }));
    await expectStatus(`DELETE /api/dms-file/${fileId}`, http('DELETE', `${platform.url}/api/dms-file/${fileId}`, { headers: auth }), 204);
    await rm(join(storageDir, String((got.json as { storedFileName: string }).storedFileName)), { force: true });
    return got.json as { checksum: string };
  };

  // warm-up (discarded): 64 MiB each way
  const warm = join(workDir, 'warm.bin');
  await generateFile(warm, Math.min(64, mib));
  for (const way of WAYS) await remove(await upload(way, warm, Math.min(64, mib) * MIB));
  await rm(warm, { force: true });

  const results: Record<Way, Measured[]> = { tus: [], multipart: [] };
  for (let round = 1; round <= rounds; round++) {
    for (const way of round % 2 === 1 ? WAYS : [...WAYS].reverse()) {
      const { transfer, answer: fileId } = await timedTransfer(pids, size, () => upload(way, source, size));
      const { seconds, cpuSeconds: cpu } = transfer;
      const stored = await remove(fileId);
      if (stored.checksum !== sha256) throw new BenchError(`${way}: stored checksum ${stored.checksum}, expected ${sha256}`);
      const measured = { mbPerSec: size / 1e6 / seconds, cpu, fileId };
      results[way].push(measured);
      console.log(
        `# round ${round} ${way.padEnd(9)} ${fmt(measured.mbPerSec, 1).padStart(7)} MB/s (${fmt(seconds, 2)} s; CPU s ${Object.entries(cpu)
          .map(([name, s]) => `${name} ${fmt(s, 2)}`)
          .join(', ')}); checksum matches`,
      );
    }
  }
  const ratios = results.tus.map((t, i) => t.mbPerSec / (results.multipart[i]?.mbPerSec ?? NaN));
  printTable(
    ['round', 'tus MB/s', 'multipart MB/s', 'ratio'],
    ratios.map((ratio, i) => [String(i + 1), fmt(results.tus[i]?.mbPerSec ?? NaN, 1), fmt(results.multipart[i]?.mbPerSec ?? NaN, 1), fmt(ratio, 2)]),
  );
  const cpuOf = (way: Way, name: string) => median(results[way].map((m) => (m.cpu[name] ?? NaN) / (size / 1024 ** 3)));
  console.log(
    `median: tus ${fmt(median(results.tus.map((m) => m.mbPerSec)), 1)} MB/s, multipart ${fmt(median(results.multipart.map((m) => m.mbPerSec)), 1)} MB/s; ` +
      `CPU s per GiB: tus gateway ${fmt(cpuOf('tus', 'gateway'), 2)} dms-svc ${fmt(cpuOf('tus', 'dms-svc'), 2)}, multipart gateway ${fmt(cpuOf('multipart', 'gateway'), 2)} dms-svc ${fmt(cpuOf('multipart', 'dms-svc'), 2)}`,
  );
  const ratio = median(ratios);
  console.log(`target: tus throughput >= ${fmt(TARGET_RATIO, 2)} x multipart: ${judge('tus ratio', ratio >= TARGET_RATIO)} (median ratio ${fmt(ratio, 2)})`);
});

/** tus: the creation, then one PATCH of the whole file. The stored file's id (Upload-File-Id). */
async function tusUpload(base: string, auth: Record<string, string>, path: string, size: number): Promise<number> {
  const metadata = `filename ${Buffer.from('bench.bin').toString('base64')},crProcessId ${Buffer.from(String(TENANT)).toString('base64')}`;
  const created = await http('POST', `${base}/api/dms-file/tus`, {
    headers: { ...auth, 'tus-resumable': '1.0.0', 'upload-length': String(size), 'upload-metadata': metadata },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) throw new BenchError(`tus creation: HTTP ${created.status}: ${created.text.slice(0, 300)}`);
  const headers = { ...auth, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' };
  const { res, text } = await sendFile(`${base}${location}`, 'PATCH', headers, path, size);
  const fileId = res.headers['upload-file-id'];
  if (res.statusCode !== 204 || typeof fileId !== 'string') throw new BenchError(`tus PATCH: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
  return Number(fileId);
}

/**
 * Scenario file-transfer: a 1 GiB upload (POST /api/dms-file/upload, multipart, JWT) and signed
 * download (GET /api/dms-file/download/{id}) through the gateway, against the same requests sent
 * straight to dms-svc's HTTP server (DMS_HTTP_ADDR, same bearer token, same signed URL), against a
 * plain file copy (a read stream piped into a write stream on the same disk: the ceiling). Prints
 * MB/s (10^6 bytes per second) per target per round, the medians, the gateway/direct ratios, and
 * the peak RSS growth of the gateway and dms-svc during each transfer (/proc/<pid>/status VmRSS
 * every 100 ms, peak minus the value just before the transfer).
 * Targets: through the gateway ≥ 0.8 × straight to dms-svc (upload and download; the median of the
 * rounds' ratios), and RSS growth ≤ 64 MiB in each process during every transfer. Also the CPU
 * seconds per GiB of each process (/proc utime + stime), which show where a transfer's time goes.
 * A missed target makes the scenario exit 3 (lib.ts judge).
 *
 * Nothing holds the file in memory: the source is generated once in a temporary folder (1 MiB of
 * random bytes, each copy stamped with its index), the upload body is a stream (preamble, the file,
 * epilogue, with its Content-Length computed), the download is consumed chunk by chunk (bytes
 * counted, SHA-256 compared with the source's). Uploaded files are soft-deleted and their stored
 * bytes removed after each round; the source, the copy and the platform's storage folder are
 * removed at the end.
 *
 *   npm run bench -- file-transfer
 *   BENCH_ROUNDS=2 BENCH_FILE_MIB=64 node bench/file-transfer.ts     (a quick check that it works)
 *
 * Env: BENCH_ROUNDS (3, at least 2), BENCH_FILE_MIB (size of the file, 1024: exactly 1 GiB, which the
 * default DMS_MAX_UPLOAD_BYTES of 1 GiB admits), TEST_DATABASE_URL / TEST_EMBEDDED_PG, REDIS_URL.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FILE_PORT_CREDENTIAL_HEADER, FilePortCredential } from '@platform/kit/auth/file-port-credential.ts';
import {
  BenchError,
  downloadFile,
  expectStatus,
  fmt,
  generateFile,
  http,
  MIB,
  multipartUpload,
  judge,
  login,
  median,
  printTable,
  runScenario,
  signedDownloadUrl,
  sourceFile,
  startBenchPlatform,
  timedTransfer,
  type Transfer,
} from './lib.ts';

/** Through the gateway at least this share of the MB/s straight to dms-svc, upload and download. */
const TARGET_RATIO = 0.8;
/** At most this RSS growth (peak minus before) of the gateway and of dms-svc during any transfer. */
const TARGET_RSS_MIB = 64;
const TENANT = 1;

type Route = 'gateway' | 'direct';
const ROUTES: readonly Route[] = ['gateway', 'direct'];
type Kind = 'upload' | 'download' | 'copy';

await runScenario('file-transfer: 1 GiB upload and download via the gateway vs straight to dms-svc vs a file copy', async () => {
  // Disk: the source, one copy, and the two uploads of a round (removed after each round).
  const { rounds, mib, size, workDir, path: source, sha256 } = await sourceFile('file-bench', 5);

  const platform = await startBenchPlatform();
  const env = platform.platform.env;
  const dmsAddr = env.DMS_HTTP_ADDR;
  const secret = env.DMS_URL_SECRET;
  if (!dmsAddr || !secret) throw new BenchError('the platform env has no DMS_HTTP_ADDR or DMS_URL_SECRET');
  const storageDir = env.DMS_STORAGE_DIR ?? join(env.DATA_DIR ?? '', 'files');
  const pids = { gateway: platform.platform.pids.gateway, 'dms-svc': platform.platform.pids['dms-svc'] };
  const base: Record<Route, string> = { gateway: platform.url, direct: `http://${dmsAddr}` };
  console.log(
    `# gateway ${platform.url}, dms-svc HTTP ${base.direct}; DMS_MAX_UPLOAD_BYTES=${env.DMS_MAX_UPLOAD_BYTES ?? `${1024 ** 3} (default)`}; ` +
      `storage ${storageDir}; RSS of gateway ${pids.gateway} and dms-svc ${pids['dms-svc']} every 100 ms`,
  );
  const token = await login(platform);
  // straight to dms-svc, a request also carries the gateway's credential, which its file port asks of every request
  const filePort = { [FILE_PORT_CREDENTIAL_HEADER]: new FilePortCredential(env.DMS_FILE_PORT_SECRET ?? '').value };
  const extra: Record<Route, Record<string, string>> = { gateway: {}, direct: filePort };
  const auth = { authorization: `Bearer ${token}` };

  const results: Record<string, Transfer[]> = {};
  const record = (key: string, transfer: Transfer): void => {
    (results[key] ??= []).push(transfer);
  };
  const rssText = (t: Transfer): string =>
    Object.keys(pids)
      .map((name) => `${name} +${fmt((t.rssGrowth[name] ?? NaN) / MIB, 1)} MiB (from ${fmt((t.rssBefore[name] ?? NaN) / MIB)})`)
      .join(', ');
  // Warm-up (discarded): one upload and download of a smaller file per route (JIT, first connections).
  const warmMib = Math.min(64, mib);
  const warmSource = join(workDir, 'warm-up.bin');
  const warmSha = await generateFile(warmSource, warmMib);
  for (const route of ROUTES) {
    const { transfer: up, answer } = await timedTransfer(pids, warmMib * MIB, () =>
      multipartUpload(`${base[route]}/api/dms-file/upload`, { ...auth, ...extra[route] }, warmSource, warmMib * MIB, TENANT),
    );
    const { fileId, storedFileName } = answer as { fileId: number; storedFileName: string };
    const { transfer: down, answer: got } = await timedTransfer(pids, warmMib * MIB, () =>
      downloadFile(signedDownloadUrl(base[route], secret, fileId), extra[route]),
    );
    if (got.sha256 !== warmSha) throw new BenchError(`warm-up download ${route}: sha256 ${got.sha256}, expected ${warmSha}`);
    console.log(`# warm-up ${route.padEnd(7)} ${fmt(warmMib)} MiB: upload ${fmt(up.mbPerSec, 1)} MB/s, download ${fmt(down.mbPerSec, 1)} MB/s (discarded)`);
    await expectStatus(`DELETE /api/dms-file/${fileId}`, http('DELETE', `${platform.url}/api/dms-file/${fileId}`, { headers: auth }), 204);
    await rm(join(storageDir, storedFileName), { force: true });
  }
  await rm(warmSource, { force: true });

  const logMark = await platform.logMark();

  for (let round = 1; round <= rounds; round++) {
    const order: readonly Route[] = round % 2 === 1 ? ROUTES : [...ROUTES].reverse();
    const uploaded: Partial<Record<Route, { fileId: number; storedFileName: string }>> = {};
    for (const route of order) {
      const { transfer, answer } = await timedTransfer(pids, size, () =>
        multipartUpload(`${base[route]}/api/dms-file/upload`, { ...auth, ...extra[route] }, source, size, TENANT),
      );
      const body = answer as { fileId?: unknown; storedFileName?: unknown; fileSize?: unknown };
      if (typeof body.fileId !== 'number' || typeof body.storedFileName !== 'string' || body.fileSize !== size) {
        throw new BenchError(`upload ${route}: unexpected answer ${JSON.stringify(answer).slice(0, 500)}`);
      }
      uploaded[route] = { fileId: body.fileId, storedFileName: body.storedFileName };
      record(`upload ${route}`, transfer);
      print(round, 'upload', route, transfer, rssText(transfer));
    }
    for (const route of order) {
      const file = uploaded[route];
      if (!file) continue;
      const { transfer, answer } = await timedTransfer(pids, size, () => downloadFile(signedDownloadUrl(base[route], secret, file.fileId), extra[route]));
      if (answer.bytes !== size || answer.sha256 !== sha256) {
        throw new BenchError(`download ${route}: ${fmt(answer.bytes)} bytes, sha256 ${answer.sha256}; expected ${fmt(size)} bytes, sha256 ${sha256}`);
      }
      record(`download ${route}`, transfer);
      print(round, 'download', route, transfer, `${rssText(transfer)}; sha256 matches`);
    }
    {
      const copy = join(workDir, 'copy.bin');
      const { transfer } = await timedTransfer(pids, size, () => pipeline(createReadStream(source), createWriteStream(copy)));
      record('copy', transfer);
      print(round, 'copy', 'file', transfer, '');
      await rm(copy, { force: true });
    }
    // Soft-delete both uploads and remove their bytes, so the disk holds at most one round's.
    for (const route of ROUTES) {
      const file = uploaded[route];
      if (!file) continue;
      await expectStatus(`DELETE /api/dms-file/${file.fileId}`, http('DELETE', `${platform.url}/api/dms-file/${file.fileId}`, { headers: auth }), 204);
      await rm(join(storageDir, file.storedFileName), { force: true });
    }
  }

  // Per round and medians.
  const columns = ['upload gateway', 'upload direct', 'download gateway', 'download direct', 'copy'];
  console.log(`\nMB/s (10^6 bytes/s) per round, ${fmt(mib)} MiB each:`);
  printTable(
    ['round', 'up gw', 'up direct', 'up ratio', 'down gw', 'down direct', 'down ratio', 'copy'],
    Array.from({ length: rounds }, (_, i) => {
      const at = (key: string): number => results[key]?.[i]?.mbPerSec ?? NaN;
      return [
        String(i + 1),
        fmt(at('upload gateway'), 1),
        fmt(at('upload direct'), 1),
        fmt(at('upload gateway') / at('upload direct'), 2),
        fmt(at('download gateway'), 1),
        fmt(at('download direct'), 1),
        fmt(at('download gateway') / at('download direct'), 2),
        fmt(at('copy'), 1),
      ];
    }),
  );
  const med = (key: string): number => median((results[key] ?? []).map((t) => t.mbPerSec));
  const maxGrowth = (key: string, name: string): number => Math.max(...(results[key] ?? []).map((t) => t.rssGrowth[name] ?? NaN));
  console.log(`\nMedian of ${rounds} rounds:`);
  printTable(
    ['transfer', 'MB/s', 'of copy', 'gateway RSS growth MiB (max)', 'dms-svc RSS growth MiB (max)'],
    columns.map((key) => [
      key,
      fmt(med(key), 1),
      fmt(med(key) / med('copy'), 2),
      key === 'copy' ? '-' : fmt(maxGrowth(key, 'gateway') / MIB, 1),
      key === 'copy' ? '-' : fmt(maxGrowth(key, 'dms-svc') / MIB, 1),
    ]),
  );
  // A ratio is judged per round (gateway and direct measured seconds apart), on the median of the rounds' ratios:
  // a ratio of two medians taken apart could pass while most rounds miss.
  const perRound = (key: string, other: string): number[] => (results[key] ?? []).map((t, i) => t.mbPerSec / (results[other]?.[i]?.mbPerSec ?? NaN));
  const upRounds = perRound('upload gateway', 'upload direct');
  const downRounds = perRound('download gateway', 'download direct');
  const upRatio = median(upRounds);
  const downRatio = median(downRounds);
  const range = (values: number[]): string => `rounds ${values.map((v) => fmt(v, 2)).join(', ')}`;
  console.log(
    `\ngateway/direct, median of the rounds' ratios: upload ${fmt(upRatio, 2)} (${range(upRounds)}), download ${fmt(downRatio, 2)} (${range(downRounds)})`,
  );
  const transfers = columns.filter((key) => key !== 'copy');
  const worst = (name: string): number => Math.max(...transfers.map((key) => maxGrowth(key, name)));
  const gatewayRss = worst('gateway');
  const dmsRss = worst('dms-svc');
  const cpuPerGib = (key: string, name: string): number => median((results[key] ?? []).map((t) => (t.cpuSeconds[name] ?? NaN) / (size / 1024 ** 3)));
  console.log(
    `CPU s per GiB (median): ${transfers.map((key) => `${key}: gateway ${fmt(cpuPerGib(key, 'gateway'), 2)}, dms-svc ${fmt(cpuPerGib(key, 'dms-svc'), 2)}, client ${fmt(cpuPerGib(key, 'bench client'), 2)}`).join('; ')}`,
  );
  console.log(
    `targets: upload ratio >= ${fmt(TARGET_RATIO, 2)}: ${judge('upload ratio', upRatio >= TARGET_RATIO)}; ` +
      `download ratio >= ${fmt(TARGET_RATIO, 2)}: ${judge('download ratio', downRatio >= TARGET_RATIO)}; ` +
      `gateway RSS growth <= ${TARGET_RSS_MIB} MiB: ${judge('gateway RSS growth', gatewayRss <= TARGET_RSS_MIB * MIB)} (worst ${fmt(gatewayRss / MIB, 1)} MiB); ` +
      `dms-svc RSS growth <= ${TARGET_RSS_MIB} MiB: ${judge('dms-svc RSS growth', dmsRss <= TARGET_RSS_MIB * MIB)} (worst ${fmt(dmsRss / MIB, 1)} MiB)`,
  );

  const logged = await platform.logSince(logMark);
  if (logged) console.log(`\n# the platform logged during the rounds (LOG_LEVEL=warn), last lines:\n${logged}`);
});

function print(round: number, kind: Kind, route: string, t: Transfer, extra: string): void {
  const cpu = Object.entries(t.cpuSeconds)
    .map(([name, s]) => `${name} ${fmt(s, 2)}`)
    .join(', ');
  console.log(
    `# round ${round} ${kind.padEnd(8)} ${route.padEnd(7)} ${fmt(t.mbPerSec, 1).padStart(7)} MB/s  (${fmt(t.seconds, 2)} s; CPU s ${cpu})${extra ? `; RSS ${extra}` : ''}`,
  );
}

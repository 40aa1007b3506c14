/**
 * Scenario export: POST /api/business-partner/export (CSV) of every partner of one tenant, a
 * million by default (docs/adr/0156-export-any-list.md). Seeds BENCH_EXPORT_ROWS (default
 * 1,000,000) partners of tenant 1 straight in SQL (bench/list-seed.ts), then, after a discarded
 * warm-up export of up to 99,999 of them (the heaps grown to their working size), exports them all sorted by partnerName,
 * BENCH_ROUNDS times (default 3), as the admin through the whole filter chain. During each export
 * the RSS of the gateway and of bpm-svc is read every 100 ms (/proc/<pid>/status VmRSS); its growth
 * is the peak minus the value just before the export. The client reads the file as it comes,
 * counting its bytes and rows (CRLFs) and keeping nothing, and checks it has the header and every
 * row and ended whole.
 *
 * Targets, in every round: the export ≤ 30 s, and RSS growth ≤ 64 MiB in the gateway and in bpm-svc.
 * For reference (not judged), the same list walked through POST /list by cursor pages of 500 as JSON,
 * one page at a time, with the same figures: what the export's reads cost without the file.
 *
 *   npm run bench -- export
 *   BENCH_EXPORT_ROWS=20000 BENCH_ROUNDS=1 node bench/export.ts   (a quick check)
 */
import { writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { seededPlatform } from './list-seed.ts';
import { postJson } from './lib/post-json.ts';
import { BenchError, fmt, judge, MIB, monotonicMicros, onCleanup, printTable, runScenario, settingsFromEnv, timedTransfer } from './lib.ts';

/** Seconds an export of every row may take. */
const TARGET_S = 30;
/** RSS growth (peak minus before) of the gateway and of bpm-svc during an export. */
const TARGET_RSS_MIB = 64;
const TENANT = 1;

/** What one export answered: bytes, CRLF-ended rows (the header included), and whether it ended whole. */
interface Exported {
  bytes: number;
  rows: number;
  complete: boolean;
}

/** One export through the gateway, read as it arrives and counted, never kept. */
function exportCsv(url: string, token: string, agent: Agent, body: unknown): Promise<Exported> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        if (res.statusCode !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => reject(new BenchError(`POST ${url}: HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`)));
          return;
        }
        let bytes = 0;
        let rows = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          // rows end with CRLF; a line break inside a quoted field is a bare LF or CR (the seed has none)
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) rows++;
        });
        res.on('end', () => resolve({ bytes, rows, complete: res.complete }));
        res.on('error', reject);
        res.on('aborted', () => resolve({ bytes, rows, complete: false }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** A walk of the same list through POST /list in cursor pages of 500 (JSON), as the reference the export is read from: rows read. */
async function walkList(url: string, token: string, agent: Agent, body: Record<string, unknown>): Promise<number> {
  let rows = 0;
  for (let after: string | undefined = ''; after !== undefined;) {
    const answer: { body: { content: unknown[]; nextAfter?: string } } = await postJson(url, token, agent, { ...body, size: 500, after });
    const page = answer.body;
    rows += page.content.length;
    after = page.nextAfter;
  }
  return rows;
}

await runScenario('export: POST /api/business-partner/export (CSV) of 1,000,000 partners of one tenant', async () => {
  const { rounds } = settingsFromEnv();
  const rows = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
  if (!Number.isInteger(rows) || rows < 1000) throw new BenchError(`BENCH_EXPORT_ROWS=${process.env.BENCH_EXPORT_ROWS}: a whole number >= 1000`);
  console.log(`# ${fmt(rows)} partners of tenant ${TENANT}; ${rounds} rounds, each exporting all of them sorted by partnerName`);

  const { platform, token } = await seededPlatform(TENANT, rows);

  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  onCleanup(() => agent.destroy());
  const url = `${platform.url}/api/business-partner/export?format=csv`;
  const body = { filter: { crProcessId: TENANT }, sorts: [{ field: 'partnerName', direction: 'ASC' }] };

  // warm-up, discarded: the partners whose code starts BP-00 (the first 99,999: a tenth of a
  // million), so that the processes' heaps have grown to what a long export keeps busy before the
  // RSS they start from is read
  const warm = await exportCsv(url, token, agent, { ...body, filter: { ...body.filter, partnerCodePrefix: 'BP-00' } });
  console.log(`# warm-up: ${fmt(warm.rows - 1)} rows, ${fmt(warm.bytes / MIB, 2)} MiB`);

  const pids = { gateway: platform.platform.pids.gateway, 'bpm-svc': platform.platform.pids['bpm-svc'] } as Record<string, number>;
  const results: { seconds: number; exported: Exported; rss: Record<string, number>; cpu: Record<string, number> }[] = [];
  const measured = { from: monotonicMicros(), to: 0 };
  for (let round = 1; round <= rounds; round++) {
    const { transfer, answer } = await timedTransfer(pids, 0, () => exportCsv(url, token, agent, body));
    if (!answer.complete || answer.rows !== rows + 1) {
      throw new BenchError(
        `round ${round}: the export ended ${answer.complete ? 'whole' : 'cut short'} with ${fmt(answer.rows)} lines, not the header and ${fmt(rows)} rows`,
      );
    }
    results.push({ seconds: transfer.seconds, exported: answer, rss: transfer.rssGrowth, cpu: transfer.cpuSeconds });
    console.log(
      `# round ${round}: ${fmt(transfer.seconds, 2)} s, ${fmt(answer.bytes / MIB, 1)} MiB, ${fmt((answer.rows - 1) / transfer.seconds)} rows/s; ` +
        `RSS growth gateway ${fmt((transfer.rssGrowth.gateway ?? NaN) / MIB, 1)} MiB, bpm-svc ${fmt((transfer.rssGrowth['bpm-svc'] ?? NaN) / MIB, 1)} MiB ` +
        `(before: ${fmt((transfer.rssBefore.gateway ?? NaN) / MIB)} and ${fmt((transfer.rssBefore['bpm-svc'] ?? NaN) / MIB)} MiB); ` +
        `CPU s gateway ${fmt(transfer.cpuSeconds.gateway ?? NaN, 1)}, bpm-svc ${fmt(transfer.cpuSeconds['bpm-svc'] ?? NaN, 1)}`,
    );
  }

  measured.to = monotonicMicros();
  if (platform.profileDir) {
    // lets bench/profile-summary.ts keep the export rounds only (not the seed, the warm-up or the list walk)
    const processes = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [pid, name]));
    await writeFile(join(platform.profileDir, 'bench-window.json'), JSON.stringify({ scenario: 'export', ...measured, processes }, null, 2));
  }

  // the reference: the same list walked through POST /list by cursor, as JSON (not judged)
  const walk = await timedTransfer(pids, 0, () => walkList(`${platform.url}/api/business-partner/list`, token, agent, body));
  if (walk.answer !== rows) throw new BenchError(`the list walk read ${fmt(walk.answer)} rows, not ${fmt(rows)}`);
  console.log(
    `# reference, the list walked by cursor (JSON, pages of 500, one at a time): ${fmt(walk.transfer.seconds, 2)} s; ` +
      `RSS growth gateway ${fmt((walk.transfer.rssGrowth.gateway ?? NaN) / MIB, 1)} MiB, bpm-svc ${fmt((walk.transfer.rssGrowth['bpm-svc'] ?? NaN) / MIB, 1)} MiB; ` +
      `CPU s gateway ${fmt(walk.transfer.cpuSeconds.gateway ?? NaN, 1)}, bpm-svc ${fmt(walk.transfer.cpuSeconds['bpm-svc'] ?? NaN, 1)}`,
  );

  console.log('\nPer round:');
  printTable(
    ['round', 'rows', 'MiB', 'seconds', 'rows/s', 'gateway RSS +MiB', 'bpm-svc RSS +MiB', 'gateway CPU s', 'bpm-svc CPU s'],
    results.map((r, i) => [
      String(i + 1),
      fmt(r.exported.rows - 1),
      fmt(r.exported.bytes / MIB, 1),
      fmt(r.seconds, 2),
      fmt((r.exported.rows - 1) / r.seconds),
      fmt((r.rss.gateway ?? NaN) / MIB, 1),
      fmt((r.rss['bpm-svc'] ?? NaN) / MIB, 1),
      fmt(r.cpu.gateway ?? NaN, 1),
      fmt(r.cpu['bpm-svc'] ?? NaN, 1),
    ]),
  );
  const worst = (pick: (r: (typeof results)[number]) => number) => Math.max(...results.map(pick));
  const slowest = worst((r) => r.seconds);
  const gatewayRss = worst((r) => r.rss.gateway ?? Infinity) / MIB;
  const serviceRss = worst((r) => r.rss['bpm-svc'] ?? Infinity) / MIB;
  console.log('\nTargets (worst round):');
  printTable(
    ['target', 'figure', 'verdict'],
    [
      [`export of ${fmt(rows)} rows ≤ ${TARGET_S} s`, `${fmt(slowest, 2)} s`, judge(`export ≤ ${TARGET_S} s`, slowest <= TARGET_S)],
      [
        `gateway RSS growth ≤ ${TARGET_RSS_MIB} MiB`,
        `${fmt(gatewayRss, 1)} MiB`,
        judge(`gateway RSS growth ≤ ${TARGET_RSS_MIB} MiB`, gatewayRss <= TARGET_RSS_MIB),
      ],
      [
        `bpm-svc RSS growth ≤ ${TARGET_RSS_MIB} MiB`,
        `${fmt(serviceRss, 1)} MiB`,
        judge(`bpm-svc RSS growth ≤ ${TARGET_RSS_MIB} MiB`, serviceRss <= TARGET_RSS_MIB),
      ],
    ],
  );
});

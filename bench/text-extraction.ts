/**
 * Scenario text-extraction: what reading files' words costs (dms-svc/src/text/). The platform runs with its workers (dms-worker
 * reads every upload's text; JOB_POLL_INTERVAL_MS=500, the least, so a run starts within half a
 * second of its upload), the tools Tesseract and poppler installed first (test/helpers/text-tools.ts).
 *
 * 1. Throughput, reported (no target): per round, through the gateway, a PDF of BENCH_TEXT_PAGES
 *    (default 50) pages with a text layer and an image-only PDF (a scan) of BENCH_OCR_PAGES
 *    (default 5) pages, made as the tests make theirs (test/helpers/documents.ts), one after the
 *    other, each waited for until its text row is DONE. Timed from the database: the worker's run,
 *    from its job's start (pgboss.job.started_on) to dms_file_text.finished_at, and from the
 *    upload's answer to finished_at; pages per second of each, median of BENCH_ROUNDS rounds. The
 *    text read must be what the document holds (its page count, a word of its last page).
 * 2. A 10 MiB upload (BENCH_TEXT_UPLOAD_MIB, plain text: its words are read as they are, up to
 *    DMS_TEXT_MAX_CHARS) answered with extraction on within 5 % of extraction off: this platform
 *    against one beside it on the same database with DMS_TEXT_EXTRACTION=false, per round
 *    BENCH_TEXT_UPLOADS (default 10) sequential uploads to each (closed loop, one at a time: the
 *    worker reads the files already answered while the next ones arrive), the order alternating by
 *    round, after one discarded upload to each. Target: the median of the rounds' ratios (median
 *    upload time on / off) ≤ 1.05. Between sets the worker's queue is let empty, and how long it
 *    took after the last answer is printed.
 *
 *   npm run bench -- text-extraction
 *   BENCH_ROUNDS=1 BENCH_TEXT_PAGES=5 BENCH_OCR_PAGES=1 BENCH_TEXT_UPLOADS=2 node bench/text-extraction.ts   (a quick check)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import pg from 'pg';
import { imagePdf, renderedPng, textPdf } from '../test/helpers/documents.ts';
import { ensureTextTools } from '../test/helpers/text-tools.ts';
import {
  BenchError,
  fmt,
  judge,
  login,
  median,
  MIB,
  onCleanup,
  printTable,
  runScenario,
  sendFile,
  settingsFromEnv,
  startBenchPlatform,
  startPlatformBeside,
} from './lib.ts';

/** Upload time with extraction on, against off, at most this ratio. */
const UPLOAD_RATIO = 1.05;
/** How long one file's text may take to be read before the scenario fails. */
const WAIT_MS = 600_000;
/** The queue the upload sends a file's run on (dms-svc/src/text/text-jobs.ts TEXT_QUEUE). */
const TEXT_QUEUE = 'dms.text-extraction';

const WORDS = [
  'sözleşme',
  'fatura',
  'ödeme',
  'teslim',
  'tarih',
  'bedel',
  'taraflar',
  'madde',
  'invoice',
  'payment',
  'delivery',
  'contract',
  'amount',
  'supplier',
  'customer',
  'warehouse',
  'shipment',
  'order',
  'quantity',
  'price',
  'tax',
  'total',
];

function wholeNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min) throw new BenchError(`${name}=${raw}: a whole number >= ${min}`);
  return value;
}

/** 24 lines of words for page `page` (a document's page, large enough for OCR once rendered). */
function pageLines(page: number): string[] {
  return Array.from({ length: 24 }, (_, line) => {
    const words = Array.from({ length: 5 }, (_, w) => WORDS[(page * 7 + line * 5 + w * 3) % WORDS.length]);
    return `Page ${page + 1} line ${line + 1} ${words.join(' ')}`;
  });
}

/** A PDF of `pages` pages with a text layer: the tests' one-page textPdf, page after page. */
async function textLayerPdf(pages: number): Promise<Uint8Array> {
  const merged = await PDFDocument.create();
  for (let page = 0; page < pages; page++) {
    const one = await PDFDocument.load(await textPdf(pageLines(page)));
    const [copied] = await merged.copyPages(one, [0]);
    if (copied) merged.addPage(copied);
  }
  return merged.save();
}

/** `mib` MiB of plain text: lines of words, the same every run. */
function plainText(mib: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < mib * MIB; i++) {
    const line = `${Array.from({ length: 10 }, (_, w) => WORDS[(i * 13 + w * 7 + (i >> 4)) % WORDS.length]).join(' ')} ${i}\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return Buffer.from(lines.join('')).subarray(0, mib * MIB);
}

/** POST /api/dms-file/upload of the file at `path` under `name` and `type`; the file's id, and when the answer came (Date.now()). */
async function upload(base: string, token: string, path: string, name: string, type: string): Promise<{ fileId: number; ms: number; answeredAt: number }> {
  const { size } = await stat(path);
  const boundary = `----bench-${randomBytes(12).toString('hex')}`;
  const before = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="crProcessId"\r\n\r\n1\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const after = Buffer.from(`\r\n--${boundary}--\r\n`);
  const started = performance.now();
  const { res, text } = await sendFile(
    `${base}/api/dms-file/upload`,
    'POST',
    { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    path,
    size,
    before,
    after,
  );
  const ms = performance.now() - started;
  if (res.statusCode !== 200) throw new BenchError(`upload ${name}: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
  const { fileId } = JSON.parse(text) as { fileId?: number };
  if (typeof fileId !== 'number') throw new BenchError(`upload ${name}: no fileId in ${text.slice(0, 300)}`);
  return { fileId, ms, answeredAt: Date.now() };
}

interface TextRow {
  status: string;
  reason: string | null;
  method: string | null;
  pages: number | null;
  content: string | null;
  finishedAt: Date | null;
  startedAt: Date | null;
}

/** The file's text row once it is no longer PENDING or RUNNING, with its last run's start. */
async function untilRead(db: pg.Client, fileId: number): Promise<TextRow> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const { rows } = await db.query<TextRow>(
      `select t.status, t.reason, t.method, t.pages, t.content, t.finished_at as "finishedAt",
              (select max(j.started_on) from pgboss.job j where j.name = $2 and j.data->>'fileId' = t.file_id::text and j.started_on <= t.finished_at) as "startedAt"
         from dms.dms_file_text t where t.file_id = $1`,
      [fileId, TEXT_QUEUE],
    );
    const row = rows[0];
    if (!row) throw new BenchError(`file ${fileId} has no text row`);
    if (row.status !== 'PENDING' && row.status !== 'RUNNING') return row;
    if (Date.now() > deadline) throw new BenchError(`file ${fileId}: its text was not read within ${WAIT_MS / 1000} s (${row.status})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Until no text row is PENDING or RUNNING: ms waited. */
async function untilQueueEmpty(db: pg.Client): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { rows } = await db.query<{ n: string }>(`select count(*) as n from dms.dms_file_text where status in ('PENDING', 'RUNNING')`);
    if (Number(rows[0]?.n) === 0) return performance.now() - started;
    if (performance.now() - started > WAIT_MS) throw new BenchError(`the text queue did not empty within ${WAIT_MS / 1000} s (${rows[0]?.n} open)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Extraction {
  workerS: number;
  fromAnswerS: number;
  pages: number;
}

await runScenario('text-extraction: pages read per second (text layer, OCR) and a 10 MiB upload with extraction on vs off', async () => {
  const { rounds } = settingsFromEnv();
  const textPages = wholeNumber('BENCH_TEXT_PAGES', 50, 1);
  const ocrPages = wholeNumber('BENCH_OCR_PAGES', 5, 1);
  const uploadMib = wholeNumber('BENCH_TEXT_UPLOAD_MIB', 10, 1);
  const uploads = wholeNumber('BENCH_TEXT_UPLOADS', 10, 1);
  await ensureTextTools();

  const dir = await mkdtemp(join(tmpdir(), 'text-bench-'));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  const textPath = join(dir, 'text-layer.pdf');
  const scanPath = join(dir, 'scan.pdf');
  const plainPath = join(dir, 'plain.txt');
  await writeFile(textPath, await textLayerPdf(textPages));
  await writeFile(scanPath, await imagePdf(await renderedPng(await textPdf(pageLines(0)), 300), ocrPages));
  await writeFile(plainPath, plainText(uploadMib));
  const sizes = await Promise.all([textPath, scanPath, plainPath].map(async (path) => (await stat(path)).size));
  console.log(
    `# documents: a ${textPages}-page PDF with a text layer (${fmt((sizes[0] ?? 0) / 1024)} KB), an image-only PDF of ${ocrPages} pages rendered at 300 dpi (${fmt((sizes[1] ?? 0) / 1024)} KB), ` +
      `${uploadMib} MiB of plain text; ${rounds} rounds`,
  );

  const platform = await startBenchPlatform(process.env, { workers: true, extraEnv: { JOB_POLL_INTERVAL_MS: '500' } });
  const token = await login(platform);
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  onCleanup(() => db.end().catch(() => undefined));
  await db.connect();

  // 1. Throughput
  const read = async (path: string, name: string, type: string, pages: number, method: string, word: RegExp): Promise<Extraction> => {
    const sent = await upload(platform.url, token, path, name, type);
    const row = await untilRead(db, sent.fileId);
    if (row.status !== 'DONE' || row.method !== method || row.pages !== pages || !word.test(row.content ?? '')) {
      throw new BenchError(
        `${name}: read ${row.status} (${row.reason ?? ''}) by ${row.method}, ${row.pages} pages, ` +
          `expected DONE by ${method}, ${pages} pages, the text holding ${word}: ${(row.content ?? '').slice(0, 200)}`,
      );
    }
    if (!row.finishedAt || !row.startedAt) throw new BenchError(`${name}: no run start or end recorded (${JSON.stringify(row).slice(0, 200)})`);
    return { workerS: (row.finishedAt.getTime() - row.startedAt.getTime()) / 1000, fromAnswerS: (row.finishedAt.getTime() - sent.answeredAt) / 1000, pages };
  };
  const kinds = {
    'text layer': () => read(textPath, 'text-layer.pdf', 'application/pdf', textPages, 'text-layer', new RegExp(`Page ${textPages} line 24`)),
    'OCR 300 dpi': () => read(scanPath, 'scan.pdf', 'application/pdf', ocrPages, 'ocr', /invoice|payment|contract/i),
  };
  const measured: Record<string, Extraction[]> = { 'text layer': [], 'OCR 300 dpi': [] };
  for (const run of Object.values(kinds)) await run(); // warm-up: the worker's first run, the tools' first start
  for (let round = 1; round <= rounds; round++) {
    for (const [kind, run] of Object.entries(kinds)) {
      const result = await run();
      measured[kind]?.push(result);
      console.log(
        `# round ${round} ${kind.padEnd(11)} ${result.pages} pages: worker run ${fmt(result.workerS, 2)} s (${fmt(result.pages / result.workerS, 2)} pages/s), ` +
          `from the upload's answer ${fmt(result.fromAnswerS, 2)} s (${fmt(result.pages / result.fromAnswerS, 2)} pages/s)`,
      );
    }
  }

  // 2. The upload with extraction on and off
  const off = await startPlatformBeside(platform, 'extraction-off', { DMS_TEXT_EXTRACTION: 'false' });
  console.log(`# extraction off: ${off.url} (the same database, DMS_TEXT_EXTRACTION=false, no worker needed)`);
  const bases = { on: platform.url, off: off.url } as const;
  const uploadSet = async (which: 'on' | 'off', count: number): Promise<{ times: number[]; drainMs: number }> => {
    await untilQueueEmpty(db);
    const times: number[] = [];
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const sent = await upload(bases[which], token, plainPath, `plain-${which}-${i}.txt`, 'text/plain');
      times.push(sent.ms);
      ids.push(sent.fileId);
    }
    const drainMs = await untilQueueEmpty(db);
    const { rows } = await db.query<{ status: string; n: string }>(
      `select status, count(*) as n from dms.dms_file_text where file_id = any($1::bigint[]) group by status`,
      [ids],
    );
    const statuses = rows.map((row) => `${row.status} ${row.n}`).join(', ');
    const expected = which === 'on' ? 'DONE' : 'SKIPPED';
    if (rows.length !== 1 || rows[0]?.status !== expected)
      throw new BenchError(`extraction ${which}: the uploads' text rows are ${statuses}, expected all ${expected}`);
    return { times, drainMs };
  };
  await uploadSet('on', 1);
  await uploadSet('off', 1);
  const ratios: number[] = [];
  const medians: Record<'on' | 'off', number[]> = { on: [], off: [] };
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    const result: Partial<Record<'on' | 'off', number>> = {};
    for (const which of order) {
      const { times, drainMs } = await uploadSet(which, uploads);
      result[which] = median(times);
      medians[which].push(median(times));
      console.log(
        `# round ${round} extraction ${which.padEnd(3)} ${uploads} x ${uploadMib} MiB: ${times.map((ms) => fmt(ms)).join(', ')} ms (median ${fmt(median(times))} ms, ` +
          `${fmt((uploadMib * MIB) / 1e6 / (median(times) / 1000), 1)} MB/s); the worker's queue empty ${fmt(drainMs / 1000, 1)} s after the last answer`,
      );
    }
    ratios.push((result.on ?? NaN) / (result.off ?? NaN));
  }

  console.log(`\nExtraction throughput (median of ${rounds} rounds; no target):`);
  printTable(
    ['document', 'pages', 'worker run s', 'pages/s (worker)', 'from answer s', 'pages/s (from answer)', 'per round pages/s (worker)'],
    Object.entries(measured).map(([kind, results]) => [
      kind,
      String(results[0]?.pages ?? ''),
      fmt(median(results.map((r) => r.workerS)), 2),
      fmt(median(results.map((r) => r.pages / r.workerS)), 2),
      fmt(median(results.map((r) => r.fromAnswerS)), 2),
      fmt(median(results.map((r) => r.pages / r.fromAnswerS)), 2),
      results.map((r) => fmt(r.pages / r.workerS, 2)).join(', '),
    ]),
  );
  const ratio = median(ratios);
  console.log(`\nTarget (${uploadMib} MiB upload, median of ${rounds} rounds of ${uploads} sequential uploads each way):`);
  printTable(
    ['extraction on ms', 'extraction off ms', 'on/off', 'per round', 'target', 'verdict'],
    [
      [
        fmt(median(medians.on)),
        fmt(median(medians.off)),
        fmt(ratio, 3),
        ratios.map((r) => fmt(r, 3)).join(', '),
        `≤ ${UPLOAD_RATIO}`,
        judge(`upload with extraction on / off ≤ ${UPLOAD_RATIO}`, ratio <= UPLOAD_RATIO),
      ],
    ],
  );
});

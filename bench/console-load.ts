/**
 * Scenario console-load: the console in a real Chromium on loopback, over a tenant of a million
 * business partners (bench/list-seed.ts, the admin's own tenant 1, so the list shows it unasked).
 *
 * - First load: a fresh browser context (empty cache) with the admin's session cookie opens
 *   /console/business-partner; timed from the navigation's start until the list's first page is in
 *   the table and no longer busy. Baseline, in the same browser: a page of plain DOM, no framework
 *   (served to the browser by Playwright on the gateway's origin), that fetches the same first page
 *   from the same API and writes it into a table.
 * - Its JavaScript: every script the first load fetched, gzip-compressed (level 9) as the target
 *   counts it.
 * - A page change: on the loaded list, a click on "next page" until the next page is rendered
 *   (its rows in the table, not busy, and a frame painted), timed in the page. Baseline: the same
 *   page's list request by fetch() from the page, timed alike.
 *
 * - A record page: from the list, a click on a partner until its page is painted with its related
 *   lists' rows (bench/console-record-page.ts). Baseline: the same requests by fetch(), at once.
 *
 * Targets (per round; the worst round's median decides): first load ≤ 1 s, its JavaScript ≤ 350 KB
 * gzip, a page change ≤ 300 ms, a partner's record page with its related lists ≤ 500 ms.
 *
 * Nothing counts that did not happen: a load or page change is ready only with record rows in the
 * table (the "Loading" and "No records" rows are not), and its list answer must have been 200 with
 * records, as many as the rows shown; every script of the first route is fetched again and must
 * answer 200 with bytes. Anything else fails the scenario naming it, rather than time an empty or
 * failed list or sum the size of nothing.
 *
 *   npm run bench -- console-load
 *   BENCH_LIST_ROWS=100000 BENCH_ROUNDS=1 node bench/console-load.ts   (a quick check)
 */
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import type { Browser, Page, Response } from 'playwright-core';
import { ensureConsoleBuilt } from '../scripts/lib/console-build.ts';
import { ensureChromium, launchChromium } from '../test/helpers/chromium.ts';
import { partnerRelated, partnersOnList, seedRelated, visitRecordPages } from './console-record-page.ts';
import { seedTenants } from './list-seed.ts';
import { BenchError, fmt, judge, login, median, onCleanup, percentile, printTable, runScenario, settingsFromEnv, startBenchPlatform } from './lib.ts';

const FIRST_LOAD_TARGET_MS = 1000;
const JS_TARGET_BYTES = 350 * 1024;
const PAGE_CHANGE_TARGET_MS = 300;
const RECORD_PAGE_TARGET_MS = 500;
const TENANT = 1;
const LIST_PATH = '/console/business-partner';

/**
 * In the page: the table's record rows. The console's "Loading" and "No records" rows are one cell
 * spanning the table (`colspan`), so they are not counted: an empty or failed list is never ready.
 */
const DATA_ROWS = `() => [...(document.querySelector('main table tbody')?.rows ?? [])].filter((row) => !row.querySelector('td[colspan]'))`;

/**
 * In the page: waits, frame by frame, until the list's table has record rows and is not fetching,
 * and answers performance.now() then (from the navigation's start) and how many rows it shows. Run
 * by page.evaluate, which the page's CSP does not govern (a string waitForFunction would need
 * 'unsafe-eval').
 */
const LIST_READY = `(async () => {
  const dataRows = ${DATA_ROWS};
  for (const started = performance.now(); performance.now() - started < 30000; ) {
    const body = document.querySelector('main table tbody');
    const rows = dataRows().length;
    if (body && body.getAttribute('aria-busy') !== 'true' && rows > 0) return { at: performance.now(), rows };
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  throw new Error('the list never rendered');
})()`;

/** The list request's path: every page of the list, the console's and the baseline's, asks it. */
const LIST_API = '/api/business-partner/list';

/**
 * Checks the list answer a page rendered: 200 with at least one record, and as many record rows in
 * the table as it held. A load or page change that rendered anything else measured nothing.
 */
async function checkListAnswer(what: string, answer: Response | undefined, rows: number): Promise<void> {
  if (!answer) throw new BenchError(`${what}: the page rendered ${rows} rows without a ${LIST_API} answer`);
  const status = answer.status();
  if (status !== 200) throw new BenchError(`${what}: ${LIST_API} answered ${status}: ${(await answer.text()).slice(0, 200)}`);
  const records = ((await answer.json()) as { content?: unknown[] }).content?.length ?? 0;
  if (records === 0) throw new BenchError(`${what}: ${LIST_API} answered no records: the list measured is empty`);
  if (rows !== records) throw new BenchError(`${what}: the table shows ${rows} record rows for the ${records} records of the answer`);
}

/** The baseline page: plain DOM that fetches the same first page and writes it into a table. */
const BASELINE_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>baseline</title></head><body><main><table><tbody aria-busy="true"></tbody></table></main>
<script>
fetch('/api/business-partner/list', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ page: 0, size: 20, filter: { crProcessId: ${TENANT} } }) })
  .then((r) => r.json()).then((page) => {
    const body = document.querySelector('tbody');
    for (const record of page.content) {
      const row = body.insertRow();
      for (const value of [record.partnerCode, record.partnerName, record.partnerType, record.status]) row.insertCell().textContent = String(value);
    }
    body.setAttribute('aria-busy', 'false');
  });
</script></body></html>`;

interface Round {
  load: number[];
  baselineLoad: number[];
  change: number[];
  baselineChange: number[];
  record: number[];
  baselineRecord: number[];
  jsGzip: number;
}

async function firstLoad(
  browser: Browser,
  url: string,
  cookie: { name: string; value: string; url: string },
  path: string,
): Promise<{ ms: number; scripts: string[] }> {
  const context = await browser.newContext();
  try {
    await context.addCookies([cookie]);
    if (path === '/bench-baseline') await context.route(`${url}/bench-baseline`, (route) => route.fulfill({ contentType: 'text/html', body: BASELINE_HTML }));
    const page = await context.newPage();
    const scripts: string[] = [];
    let listAnswer: Response | undefined;
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === LIST_API) listAnswer = response;
    });
    await page.goto(`${url}${path}`, { waitUntil: 'commit' });
    const ready = (await page.evaluate(LIST_READY)) as { at: number; rows: number };
    await checkListAnswer(`first load of ${path}`, listAnswer, ready.rows);
    return { ms: ready.at, scripts };
  } finally {
    await context.close();
  }
}

/** In the page: clicks "next page" and answers the ms until the next page is painted (a string: it runs in the browser). */
const PAGE_CHANGE = `(async () => {
  const body = () => document.querySelector('main table tbody');
  const firstRow = () => body()?.querySelector('tr')?.textContent ?? '';
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const before = firstRow();
  const buttons = [...document.querySelectorAll('nav.pagination button')];
  const next = buttons[buttons.length - 1];
  if (!next) throw new Error('no next-page button');
  const started = performance.now();
  next.click();
  const dataRows = ${DATA_ROWS};
  for (;;) {
    await frame();
    const current = body();
    if (current && current.getAttribute('aria-busy') !== 'true' && firstRow() !== before && dataRows().length > 0) break;
    if (performance.now() - started > 30000) throw new Error('the next page never rendered');
  }
  await frame();
  return { ms: performance.now() - started, rows: dataRows().length };
})()`;

async function pageChange(page: Page): Promise<number> {
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === LIST_API, { timeout: 30_000 });
  const changed = (await page.evaluate(PAGE_CHANGE)) as { ms: number; rows: number };
  await checkListAnswer('a page change', await answer.catch(() => undefined), changed.rows);
  return changed.ms;
}

/** In the page: the list request of page `index`, by fetch, timed alike. */
async function listFetch(page: Page, index: number): Promise<number> {
  return page
    .evaluate(
      async ({ index, tenant }) => {
        const started = performance.now();
        const res = await fetch('/api/business-partner/list', {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ page: index, size: 20, filter: { crProcessId: tenant } }),
        });
        const answer = (await res.json()) as { content?: unknown[] };
        return { ms: performance.now() - started, status: res.status, records: answer.content?.length ?? 0 };
      },
      { index, tenant: TENANT },
    )
    .then(({ ms, status, records }) => {
      if (status !== 200 || records === 0)
        throw new BenchError(`the baseline's fetch of page ${index}: ${LIST_API} answered ${status} with ${records} records`);
      return ms;
    });
}

await runScenario('console-load: the console in Chromium over a million partners, against plain DOM and bare fetch', async () => {
  const { rounds } = settingsFromEnv();
  const rows = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
  const loads = Number(process.env.BENCH_CONSOLE_LOADS ?? 10);
  const changes = Number(process.env.BENCH_CONSOLE_CHANGES ?? 20);
  const records = Number(process.env.BENCH_CONSOLE_RECORDS ?? 10);
  if (!Number.isInteger(rows) || rows < 1000) throw new BenchError(`BENCH_LIST_ROWS=${process.env.BENCH_LIST_ROWS}: a whole number >= 1000`);
  if (!Number.isInteger(loads) || loads < 1) throw new BenchError(`BENCH_CONSOLE_LOADS=${process.env.BENCH_CONSOLE_LOADS}: a whole number >= 1`);
  if (!Number.isInteger(changes) || changes < 1) throw new BenchError(`BENCH_CONSOLE_CHANGES=${process.env.BENCH_CONSOLE_CHANGES}: a whole number >= 1`);
  if (!Number.isInteger(records) || records < 1 || records > 20)
    throw new BenchError(`BENCH_CONSOLE_RECORDS=${process.env.BENCH_CONSOLE_RECORDS}: a whole number from 1 to 20 (the list's first page)`);
  await ensureConsoleBuilt((line) => console.log(`# ${line}`));
  await ensureChromium();
  const platform = await startBenchPlatform();
  const token = await login(platform);

  const client = new pg.Client({ connectionString: platform.databaseUrl });
  await client.connect();
  onCleanup(() => client.end().catch(() => undefined));
  const seedStarted = performance.now();
  await seedTenants([client], [TENANT], rows);
  console.log(`# seeded ${fmt(rows)} partners in tenant ${TENANT} in ${fmt((performance.now() - seedStarted) / 1000, 1)} s`);

  const browser = await launchChromium();
  onCleanup(() => browser.close());
  const cookie = { name: 'SVC_SESSION', value: token, url: platform.url };
  // warm the server side (the gateway's and the services' first calls), not the browser: each load has a fresh context
  await firstLoad(browser, platform.url, cookie, LIST_PATH);
  await firstLoad(browser, platform.url, cookie, '/bench-baseline');
  // the partners a round visits, each given a record of every resource its page lists
  const related = await partnerRelated(platform, token);
  const seeding = await browser.newContext();
  await seeding.addCookies([cookie]);
  const visits = await partnersOnList(seeding, `${platform.url}${LIST_PATH}`, LIST_READY, records);
  await seeding.close();
  await seedRelated(platform, token, TENANT, visits, related);
  console.log(`# ${visits.length} partners given one ${related.map((each) => each.resource).join(', ')} each`);

  const results: Round[] = [];
  for (let round = 1; round <= rounds; round++) {
    const result: Round = { load: [], baselineLoad: [], change: [], baselineChange: [], record: [], baselineRecord: [], jsGzip: 0 };
    for (let i = 0; i < loads; i++) {
      // alternate which goes first
      const order = i % 2 === 0 ? [LIST_PATH, '/bench-baseline'] : ['/bench-baseline', LIST_PATH];
      for (const path of order) {
        const { ms, scripts } = await firstLoad(browser, platform.url, cookie, path);
        if (path === LIST_PATH) {
          result.load.push(ms);
          if (i === 0) {
            // every script counted, each fetched whole: a size summed over nothing, or over error pages, is no measurement
            if (scripts.length === 0) throw new BenchError(`round ${round}: the first load of ${LIST_PATH} fetched no script`);
            for (const script of scripts) {
              const res = await fetch(script, { headers: { 'accept-encoding': 'identity' } });
              const bytes = Buffer.from(await res.arrayBuffer());
              if (res.status !== 200 || bytes.length === 0) throw new BenchError(`round ${round}: ${script} answered ${res.status} with ${bytes.length} bytes`);
              result.jsGzip += gzipSync(bytes, { level: 9 }).length;
            }
          }
        } else result.baselineLoad.push(ms);
      }
    }
    const context = await browser.newContext();
    await context.addCookies([cookie]);
    const page = await context.newPage();
    const opened = page.waitForResponse((response) => new URL(response.url()).pathname === LIST_API, { timeout: 30_000 });
    await page.goto(`${platform.url}${LIST_PATH}`);
    const ready = (await page.evaluate(LIST_READY)) as { rows: number };
    await checkListAnswer('the list before the page changes', await opened.catch(() => undefined), ready.rows);
    for (let i = 0; i < changes; i++) {
      result.change.push(await pageChange(page));
      result.baselineChange.push(await listFetch(page, i + 1 + changes));
    }
    await context.close();
    const recordPages = await visitRecordPages(browser, cookie, `${platform.url}${LIST_PATH}`, LIST_READY, visits, related, TENANT);
    result.record.push(...recordPages.visits);
    result.baselineRecord.push(...recordPages.baseline);
    results.push(result);
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    console.log(
      `# round ${round}: first load p50 ${fmt(median(result.load), 1)} ms (max ${fmt(Math.max(...result.load), 1)}), baseline p50 ${fmt(median(result.baselineLoad), 1)} ms; ` +
        `page change p50 ${fmt(median(result.change), 1)} ms (p95 ${fmt(percentile(sorted(result.change), 0.95), 1)}), fetch alone p50 ${fmt(median(result.baselineChange), 1)} ms; ` +
        `record page p50 ${fmt(median(result.record), 1)} ms, its requests alone p50 ${fmt(median(result.baselineRecord), 1)} ms; ` +
        `first load's JavaScript ${fmt(result.jsGzip / 1024, 1)} KB gzip`,
    );
  }

  const worst = (pick: (round: Round) => number) => Math.max(...results.map(pick));
  const load = worst((round) => median(round.load));
  const baselineLoad = median(results.map((round) => median(round.baselineLoad)));
  const change = worst((round) => median(round.change));
  const baselineChange = median(results.map((round) => median(round.baselineChange)));
  const js = worst((round) => round.jsGzip);
  const record = worst((round) => median(round.record));
  const baselineRecord = median(results.map((round) => median(round.baselineRecord)));
  printTable(
    ['measure', 'console', 'baseline', 'console / baseline', 'target', 'verdict'],
    [
      [
        'first load to an interactive list (ms, p50)',
        fmt(load, 1),
        fmt(baselineLoad, 1),
        fmt(load / baselineLoad, 2),
        `≤ ${FIRST_LOAD_TARGET_MS}`,
        judge(`first load ≤ ${FIRST_LOAD_TARGET_MS} ms`, load <= FIRST_LOAD_TARGET_MS),
      ],
      [
        "first route's JavaScript (KB gzip)",
        fmt(js / 1024, 1),
        '',
        '',
        `≤ ${JS_TARGET_BYTES / 1024}`,
        judge(`first route JS ≤ ${JS_TARGET_BYTES / 1024} KB gzip`, js <= JS_TARGET_BYTES),
      ],
      [
        'page change, click to painted (ms, p50)',
        fmt(change, 1),
        fmt(baselineChange, 1),
        fmt(change / baselineChange, 2),
        `≤ ${PAGE_CHANGE_TARGET_MS}`,
        judge(`page change ≤ ${PAGE_CHANGE_TARGET_MS} ms`, change <= PAGE_CHANGE_TARGET_MS),
      ],
      [
        "a partner's record page with its related lists, click to painted (ms, p50)",
        fmt(record, 1),
        fmt(baselineRecord, 1),
        fmt(record / baselineRecord, 2),
        `≤ ${RECORD_PAGE_TARGET_MS}`,
        judge(`record page ≤ ${RECORD_PAGE_TARGET_MS} ms`, record <= RECORD_PAGE_TARGET_MS),
      ],
    ],
  );
});

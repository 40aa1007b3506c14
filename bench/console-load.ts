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
 * Targets (per round; the worst round's median decides): first load ≤ 1 s, its JavaScript ≤ 350 KB
 * gzip, a page change ≤ 300 ms.
 *
 *   npm run bench -- console-load
 *   BENCH_LIST_ROWS=100000 BENCH_ROUNDS=1 node bench/console-load.ts   (a quick check)
 */
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { ensureConsoleBuilt } from '../scripts/lib/console-build.ts';
import { ensureChromium, launchChromium } from '../test/helpers/chromium.ts';
import { seedTenants } from './list-seed.ts';
import { BenchError, fmt, judge, login, median, onCleanup, percentile, printTable, runScenario, settingsFromEnv, startBenchPlatform } from './lib.ts';

const FIRST_LOAD_TARGET_MS = 1000;
const JS_TARGET_BYTES = 350 * 1024;
const PAGE_CHANGE_TARGET_MS = 300;
const TENANT = 1;
const LIST_PATH = '/console/business-partner';

/**
 * In the page: waits, frame by frame, until the list's table has rows and is not fetching, and
 * answers performance.now() then (from the navigation's start). Run by page.evaluate, which the
 * page's CSP does not govern (a string waitForFunction would need 'unsafe-eval').
 */
const LIST_READY = `(async () => {
  for (const started = performance.now(); performance.now() - started < 30000; ) {
    const body = document.querySelector('main table tbody');
    if (body && body.getAttribute('aria-busy') !== 'true' && body.querySelectorAll('tr').length > 0) return performance.now();
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  throw new Error('the list never rendered');
})()`;

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
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(`${url}${path}`, { waitUntil: 'commit' });
    return { ms: (await page.evaluate(LIST_READY)) as number, scripts };
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
  for (;;) {
    await frame();
    const current = body();
    if (current && current.getAttribute('aria-busy') !== 'true' && firstRow() !== before && current.querySelectorAll('tr').length > 0) break;
    if (performance.now() - started > 30000) throw new Error('the next page never rendered');
  }
  await frame();
  return performance.now() - started;
})()`;

async function pageChange(page: Page): Promise<number> {
  return (await page.evaluate(PAGE_CHANGE)) as number;
}

/** In the page: the list request of page `index`, by fetch, timed alike. */
async function listFetch(page: Page, index: number): Promise<number> {
  return page.evaluate(
    async ({ index, tenant }) => {
      const started = performance.now();
      const res = await fetch('/api/business-partner/list', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ page: index, size: 20, filter: { crProcessId: tenant } }),
      });
      await res.json();
      return performance.now() - started;
    },
    { index, tenant: TENANT },
  );
}

await runScenario('console-load: the console in Chromium over a million partners, against plain DOM and bare fetch', async () => {
  const { rounds } = settingsFromEnv();
  const rows = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
  const loads = Number(process.env.BENCH_CONSOLE_LOADS ?? 10);
  const changes = Number(process.env.BENCH_CONSOLE_CHANGES ?? 20);
  if (!Number.isInteger(rows) || rows < 1000) throw new BenchError(`BENCH_LIST_ROWS=${process.env.BENCH_LIST_ROWS}: a whole number >= 1000`);
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

  const results: Round[] = [];
  for (let round = 1; round <= rounds; round++) {
    const result: Round = { load: [], baselineLoad: [], change: [], baselineChange: [], jsGzip: 0 };
    for (let i = 0; i < loads; i++) {
      // alternate which goes first
      const order = i % 2 === 0 ? [LIST_PATH, '/bench-baseline'] : ['/bench-baseline', LIST_PATH];
      for (const path of order) {
        const { ms, scripts } = await firstLoad(browser, platform.url, cookie, path);
        if (path === LIST_PATH) {
          result.load.push(ms);
          if (i === 0) {
            for (const script of scripts) {
              const res = await fetch(script, { headers: { 'accept-encoding': 'identity' } });
              result.jsGzip += gzipSync(Buffer.from(await res.arrayBuffer()), { level: 9 }).length;
            }
          }
        } else result.baselineLoad.push(ms);
      }
    }
    const context = await browser.newContext();
    await context.addCookies([cookie]);
    const page = await context.newPage();
    await page.goto(`${platform.url}${LIST_PATH}`);
    await page.evaluate(LIST_READY);
    for (let i = 0; i < changes; i++) {
      result.change.push(await pageChange(page));
      result.baselineChange.push(await listFetch(page, i + 1 + changes));
    }
    await context.close();
    results.push(result);
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    console.log(
      `# round ${round}: first load p50 ${fmt(median(result.load), 1)} ms (max ${fmt(Math.max(...result.load), 1)}), baseline p50 ${fmt(median(result.baselineLoad), 1)} ms; ` +
        `page change p50 ${fmt(median(result.change), 1)} ms (p95 ${fmt(percentile(sorted(result.change), 0.95), 1)}), fetch alone p50 ${fmt(median(result.baselineChange), 1)} ms; ` +
        `first load's JavaScript ${fmt(result.jsGzip / 1024, 1)} KB gzip`,
    );
  }

  const worst = (pick: (round: Round) => number) => Math.max(...results.map(pick));
  const load = worst((round) => median(round.load));
  const baselineLoad = median(results.map((round) => median(round.baselineLoad)));
  const change = worst((round) => median(round.change));
  const baselineChange = median(results.map((round) => median(round.baselineChange)));
  const js = worst((round) => round.jsGzip);
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
    ],
  );
});

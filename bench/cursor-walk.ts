/**
 * Scenario cursor-walk: a walk of a tenant's BENCH_LIST_ROWS (default 1,000,000) business partners
 * through `POST /api/business-partner/list` in cursor pages of 500 (docs/adr/0154-cursor-paging-over-the-sort.md),
 * as a tool reads a whole list: each page's `nextAfter` the next request's `after`, one request at
 * a time, through the gateway with the admin's bearer token. Seeds the tenant straight in SQL
 * (bench/list-seed.ts). Two orders: the default (id) and by partnerName (a text with repeats, one
 * row comparison over its list index).
 *
 * Per order: the walk's time and its rows (every row once, checked), the p50 of its first and last
 * 20 pages; then, over BENCH_ROUNDS rounds (default 3), BENCH_CURSOR_REQUESTS (default 50) requests
 * each of the first page and of the last page's cursor, interleaved, and the same two places by
 * offset (page 0 and the last page) as the baseline a cursor replaces.
 *
 * Targets: each walk ≤ 60 s; the last page's p50 ≤ 2 × the first's (median of rounds).
 *
 *   npm run bench -- cursor-walk
 *   BENCH_LIST_ROWS=100000 BENCH_ROUNDS=1 node bench/cursor-walk.ts   (a quick check)
 */
import { Agent } from 'node:http';
import { seededPlatform } from './list-seed.ts';
import { postJson } from './lib/post-json.ts';
import { BenchError, fmt, judge, median, onCleanup, percentile, printTable, runScenario, settingsFromEnv } from './lib.ts';

const PAGE = 500;
const WALK_TARGET_S = 60;
const LAST_OVER_FIRST = 2;
const TENANT = 1;

interface Page {
  ms: number;
  ids: number[];
  nextAfter: string | undefined;
}

/** One list request through the gateway on a kept-alive connection. */
async function listPage(url: string, token: string, agent: Agent, body: Record<string, unknown>): Promise<Page> {
  const { ms, body: page } = await postJson<{ content: { id: number }[]; nextAfter?: string }>(url, token, agent, body);
  return { ms, ids: page.content.map((row) => row.id), nextAfter: page.nextAfter };
}

const p50 = (ms: readonly number[]) =>
  percentile(
    [...ms].sort((a, b) => a - b),
    0.5,
  );

await runScenario(`cursor-walk: a tenant's partners through POST /api/business-partner/list in cursor pages of ${PAGE}`, async () => {
  const { rounds } = settingsFromEnv();
  const rows = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
  const requests = Number(process.env.BENCH_CURSOR_REQUESTS ?? 50);
  if (!Number.isInteger(rows) || rows < PAGE * 4) throw new BenchError(`BENCH_LIST_ROWS=${process.env.BENCH_LIST_ROWS}: a whole number >= ${PAGE * 4}`);
  console.log(`# ${fmt(rows)} partners of tenant ${TENANT}; pages of ${PAGE}; ${rounds} rounds of ${requests} requests per place`);

  const { platform, token } = await seededPlatform(TENANT, rows);

  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  onCleanup(() => agent.destroy());
  const url = `${platform.url}/api/business-partner/list`;
  const orders: [string, Record<string, unknown>[]][] = [
    ['id (default)', []],
    ['partnerName', [{ field: 'partnerName', direction: 'ASC' }]],
  ];

  const verdicts: string[][] = [];
  for (const [name, sorts] of orders) {
    const filter = { crProcessId: TENANT };
    const pageMs: number[] = [];
    const seen = new Set<number>();
    let after: string | undefined = '';
    let lastAfter = '';
    const walkStart = performance.now();
    while (after !== undefined) {
      const page: Page = await listPage(url, token, agent, { size: PAGE, sorts, filter, after });
      for (const id of page.ids) {
        if (seen.has(id)) throw new BenchError(`${name}: row ${id} twice`);
        seen.add(id);
      }
      pageMs.push(page.ms);
      if (page.nextAfter !== undefined) lastAfter = page.nextAfter;
      after = page.nextAfter;
    }
    const walkS = (performance.now() - walkStart) / 1000;
    if (seen.size !== rows) throw new BenchError(`${name}: the walk read ${seen.size} rows of ${rows}`);
    console.log(
      `# walk by ${name}: ${fmt(walkS, 1)} s, ${fmt(pageMs.length)} pages, ${fmt(seen.size)} rows once each; p50 of the first 20 pages ${fmt(p50(pageMs.slice(0, 20)), 2)} ms, of the last 20 ${fmt(p50(pageMs.slice(-20)), 2)} ms`,
    );

    // the same two places again, and the offset pages a cursor replaces as the baseline
    const lastOffsetPage = Math.ceil(rows / PAGE) - 1;
    const places = {
      first: { size: PAGE, sorts, filter, after: '' },
      last: { size: PAGE, sorts, filter, after: lastAfter },
      'offset first': { page: 0, size: PAGE, sorts, filter },
      'offset last': { page: lastOffsetPage, size: PAGE, sorts, filter },
    };
    const perRound: Record<keyof typeof places, number[]> = { first: [], last: [], 'offset first': [], 'offset last': [] };
    for (let round = 1; round <= rounds; round++) {
      const ms: Record<keyof typeof places, number[]> = { first: [], last: [], 'offset first': [], 'offset last': [] };
      for (let i = 0; i < requests; i++) {
        for (const place of Object.keys(places) as (keyof typeof places)[]) ms[place].push((await listPage(url, token, agent, places[place])).ms);
      }
      for (const place of Object.keys(places) as (keyof typeof places)[]) perRound[place].push(p50(ms[place]));
      console.log(
        `# round ${round} by ${name}: cursor first p50 ${fmt(p50(ms.first), 2)} ms, last ${fmt(p50(ms.last), 2)} ms | offset page 0 ${fmt(p50(ms['offset first']), 2)} ms, page ${fmt(lastOffsetPage)} ${fmt(p50(ms['offset last']), 2)} ms`,
      );
    }
    const first = median(perRound.first);
    const last = median(perRound.last);
    verdicts.push([
      name,
      fmt(walkS, 1),
      judge(`walk by ${name} ≤ ${WALK_TARGET_S} s`, walkS <= WALK_TARGET_S),
      fmt(first, 2),
      fmt(last, 2),
      fmt(last / first, 2),
      judge(`last page p50 by ${name} ≤ ${LAST_OVER_FIRST} × the first's`, last <= LAST_OVER_FIRST * first),
      `${fmt(median(perRound['offset first']), 2)} / ${fmt(median(perRound['offset last']), 2)}`,
      fmt(median(perRound['offset last']) / last, 1),
    ]);
  }

  console.log('\nTargets (p50 ms, median of rounds):');
  printTable(
    [
      'order',
      'walk s',
      `walk ≤ ${WALK_TARGET_S} s`,
      'first p50',
      'last p50',
      'last/first',
      `≤ ${LAST_OVER_FIRST}×`,
      'offset first / last p50',
      'offset last / cursor last',
    ],
    verdicts,
  );
});

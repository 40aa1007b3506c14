/**
 * Scenario search: GET /api/search?q= (the console's global search) over a tenant of a million
 * business partners (bench/list-seed.ts, tenant 1), as a clerk (bench/lib/clerk.ts: not a super
 * user, so every kind's read role and the tenant are checked as for most users).
 *
 * Terms of each kind of match: a code prefix in the case it is written and in another, a name word,
 * a part of a name across two words, a name with its Turkish letters, and a two-character term
 * (matched by prefix: docs/adr/0116-global-search-fans-out.md). Per round, BENCH_SEARCH_REQUESTS
 * (default 300) sequential requests cycling through the terms, after BENCH_SEARCH_WARMUP (default
 * 30) discarded ones. Target: ≤ 150 ms p50 (the worst round's decides).
 *
 * Nothing counts that did not happen: every answer must be 200, whole (not partial), with every
 * kind of the search and at least one business partner whose code or name holds the term; anything
 * else fails the scenario naming the term, rather than time an empty or refused search.
 *
 *   npm run bench -- search
 *   BENCH_LIST_ROWS=100000 BENCH_ROUNDS=1 node bench/search.ts   (a quick check)
 */
import pg from 'pg';
import { SEARCH_KINDS } from '@platform/contracts/search.ts';
import { clerkToken } from './lib/clerk.ts';
import { seedTenants } from './list-seed.ts';
import { BenchError, fmt, http, judge, login, median, onCleanup, percentile, printTable, runScenario, settingsFromEnv, startBenchPlatform } from './lib.ts';

const TARGET_MS = 150;
const TENANT = 1;

/** The terms searched, and what each tries. */
const TERMS: readonly { q: string; note: string }[] = [
  { q: 'BP-000123', note: 'code prefix' },
  { q: 'bp-00042', note: 'code prefix, lower case' },
  { q: 'Kartal', note: 'name word' },
  { q: 'lojistik 41', note: 'across two words' },
  { q: 'yıldız enerji', note: 'Turkish letters, lower case' },
  { q: 'Ka', note: 'two characters: by prefix' },
];

interface Answer {
  groups?: { entity: string; hits: { code: string | null; name: string }[] }[];
  partial?: boolean;
}

/** Folds as the search does (I, İ, ı alike; case), to check a hit holds its term. */
const fold = (text: string) => text.replace(/[İIı]/g, 'i').toLowerCase();

/** One search, timed; a BenchError unless it is a whole answer with partners that hold the term. */
async function searchOnce(url: string, token: string, q: string): Promise<number> {
  const started = performance.now();
  const answer = await http('GET', `${url}/api/search?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${token}` } });
  const ms = performance.now() - started;
  if (answer.status !== 200) throw new BenchError(`search ${q}: HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
  const body = answer.json as Answer;
  if (body.partial !== false) throw new BenchError(`search ${q}: a partial answer: ${answer.text.slice(0, 300)}`);
  const kinds = (body.groups ?? []).map((group) => group.entity);
  if (kinds.join() !== SEARCH_KINDS.map((kind) => kind.resource.path).join()) throw new BenchError(`search ${q}: the kinds ${kinds.join(', ')}, not all`);
  const partners = body.groups?.find((group) => group.entity === 'business-partner')?.hits ?? [];
  if (partners.length === 0) throw new BenchError(`search ${q}: no business partner found: the search measured found nothing`);
  const term = fold(q);
  const stray = partners.find((hit) => !fold(`${hit.code ?? ''} ${hit.name}`).includes(term));
  if (stray) throw new BenchError(`search ${q}: a partner that does not hold the term: ${JSON.stringify(stray)}`);
  return ms;
}

/** The baseline: one partner read by its id through the same gateway, as the same clerk, timed alike. */
async function getOnce(url: string, token: string, id: number): Promise<number> {
  const started = performance.now();
  const answer = await http('GET', `${url}/api/business-partner/${id}`, { headers: { authorization: `Bearer ${token}` } });
  const ms = performance.now() - started;
  if (answer.status !== 200 || (answer.json as { id?: number }).id !== id)
    throw new BenchError(`GET partner ${id}: HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
  return ms;
}

await runScenario('search: the global search over a million partners, as a clerk', async () => {
  const { rounds } = settingsFromEnv();
  const rows = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
  const requests = Number(process.env.BENCH_SEARCH_REQUESTS ?? 300);
  const warmup = Number(process.env.BENCH_SEARCH_WARMUP ?? 30);
  if (!Number.isInteger(rows) || rows < 100_000) throw new BenchError(`BENCH_LIST_ROWS=${process.env.BENCH_LIST_ROWS}: a whole number >= 100000`);
  if (!Number.isInteger(requests) || requests < TERMS.length) throw new BenchError(`BENCH_SEARCH_REQUESTS: a whole number >= ${TERMS.length}`);
  if (!Number.isInteger(warmup) || warmup < 0) throw new BenchError(`BENCH_SEARCH_WARMUP: a whole number >= 0`);
  const platform = await startBenchPlatform();
  const admin = await login(platform);
  const client = new pg.Client({ connectionString: platform.databaseUrl });
  await client.connect();
  onCleanup(() => client.end().catch(() => undefined));
  const seedStarted = performance.now();
  await seedTenants([client], [TENANT], rows);
  console.log(`# seeded ${fmt(rows)} partners in tenant ${TENANT} in ${fmt((performance.now() - seedStarted) / 1000, 1)} s`);
  const { token } = await clerkToken(platform, admin);
  const ids = (await client.query<{ id: string }>('select id from bpm.business_partner where cr_process_id = $1 order by id limit 1000', [TENANT])).rows.map(
    (row) => Number(row.id),
  );
  if (ids.length === 0) throw new BenchError('the seed made no partner to read by its id');

  for (let i = 0; i < warmup; i++) await searchOnce(platform.url, token, TERMS[i % TERMS.length]?.q ?? '');
  const results: number[][] = [];
  const baselines: number[][] = [];
  const byTerm = new Map<string, number[]>(TERMS.map(({ q }) => [q, []]));
  for (let round = 1; round <= rounds; round++) {
    const times: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < requests; i++) {
      const q = TERMS[i % TERMS.length]?.q ?? '';
      const ms = await searchOnce(platform.url, token, q);
      times.push(ms);
      byTerm.get(q)?.push(ms);
      // a partner of the seed by its id, in turn with the searches
      baseline.push(await getOnce(platform.url, token, ids[(i * 7919) % ids.length] ?? 0));
    }
    baselines.push(baseline);
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `# round ${round}: p50 ${fmt(median(times), 1)} ms, p95 ${fmt(percentile(sorted, 0.95), 1)} ms, p99 ${fmt(percentile(sorted, 0.99), 1)} ms; ` +
        `a partner by its id p50 ${fmt(median(baseline), 1)} ms`,
    );
    results.push(times);
  }
  for (const { q, note } of TERMS) console.log(`#   ${JSON.stringify(q)} (${note}): p50 ${fmt(median(byTerm.get(q) ?? []), 1)} ms`);
  const worst = Math.max(...results.map((times) => median(times)));
  const baselineMs = median(baselines.map((times) => median(times)));
  printTable(
    ['measure', 'figure', 'baseline: a partner by id', 'search / baseline', 'target', 'verdict'],
    [
      [
        `search answered over ${fmt(rows)} partners (ms, worst round's p50)`,
        fmt(worst, 1),
        fmt(baselineMs, 1),
        fmt(worst / baselineMs, 2),
        `≤ ${TARGET_MS}`,
        judge(`search ≤ ${TARGET_MS} ms`, worst <= TARGET_MS),
      ],
    ],
  );
});

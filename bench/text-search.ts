/**
 * Scenario text-search: GET /api/dms-file/search (files found by the words of their text,
 * dms-svc/src/text/search-text.ts) over BENCH_TEXT_DOCS (default 100,000) files of
 * one tenant, BENCH_TEXT_TENANTS (default 10) tenants alike: 1,000,000 files in all. Seeded straight
 * in SQL as the owner (bench/text-seed.ts: two pages of about 300 words per file, their vector in
 * dms.english_folded, the tenants' lexemes), the seed's time printed. The term is a word in exactly
 * 1 % of each tenant's files (bench/text-seed.ts COMMON_WORD).
 *
 * Before measuring, one search must answer what the data holds: 200, min(500, matches) files of the
 * tenant, every one a file whose text holds the word, ranked (searchRank), the first with a snippet
 * marking the word. Then, open loop (bench/open-loop.ts: each request sent when due, timed from
 * then) at BENCH_TEXT_RATE requests/s (default 2) for BENCH_TEXT_SECONDS (default 60) per round,
 * BENCH_ROUNDS rounds after a BENCH_WARMUP-second warm-up, through the gateway as the admin.
 * Targets on the median of the rounds: p50 ≤ 50 ms, p99 ≤ 200 ms.
 *
 *   npm run bench -- text-search
 *   BENCH_TEXT_DOCS=20000 BENCH_TEXT_TENANTS=2 BENCH_ROUNDS=1 node bench/text-search.ts   (a quick check)
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { DmsFileEntity, entities, migrationsDir, SCHEMA } from '../dms-svc/src/db.ts';
import { searchText } from '../dms-svc/src/text/search-text.ts';
import { liveOnly } from '../libs/service-kit/src/crud/key-read.ts';
import { searchCondition } from '../libs/service-kit/src/crud/search-term.ts';
import { createOrm } from '../libs/service-kit/src/db/orm.ts';
import { scopedFork } from '../libs/service-kit/src/db/tenant-scope.ts';
import { COMMON_WORD, seedTexts } from './text-seed.ts';
import {
  BenchError,
  expectStatus,
  fmt,
  http,
  judge,
  login,
  median,
  onCleanup,
  percentile,
  printTable,
  runScenario,
  settingsFromEnv,
  startBenchPlatform,
} from './lib.ts';
import { latencySummary, openLoop } from './open-loop.ts';

const TARGETS = { p50: 50, p99: 200 } as const;
/** The tenant searched (seeded first: its files have the ids 1 .. BENCH_TEXT_DOCS). */
const TENANT = 1;
/** Most files a search answers (dms-svc/src/resources/dms-file/dms-file.operations.ts SEARCH_LIMIT). */
const SEARCH_LIMIT = 500;

interface FileHit {
  id: number;
  crProcessId: number;
  searchRank?: string;
  searchSnippet?: string;
}

function wholeNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min) throw new BenchError(`${name}=${raw}: a whole number >= ${min}`);
  return value;
}

await runScenario('text-search: GET /api/dms-file/search over 100,000 files of a tenant (1,000,000 in all), open loop', async () => {
  const { rounds, warmup } = settingsFromEnv();
  const perTenant = wholeNumber('BENCH_TEXT_DOCS', 100_000, 1000);
  const tenantCount = wholeNumber('BENCH_TEXT_TENANTS', 10, 1);
  const rate = wholeNumber('BENCH_TEXT_RATE', 2, 1);
  const seconds = wholeNumber('BENCH_TEXT_SECONDS', 60, 2);
  const total = perTenant * tenantCount;
  const scale = `${fmt(perTenant)} files of tenant ${TENANT}, ${fmt(total)} in all over ${tenantCount} tenants`;
  console.log(
    `# scale measured: ${scale}${total < 1_000_000 || perTenant < 100_000 ? " (BELOW the issue's scale: 100,000 of the tenant, 1,000,000 in all)" : ''}; ` +
      `${rate} req/s for ${seconds} s per round, ${rounds} rounds, ${warmup} s warm-up`,
  );

  const platform = await startBenchPlatform();
  const token = await login(platform);
  const tenants = Array.from({ length: tenantCount }, (_, i) => TENANT + i);
  for (const tenant of tenants.slice(1)) {
    await expectStatus(
      `POST /api/account (tenant ${tenant})`,
      http('POST', `${platform.url}/api/account`, {
        headers: { authorization: `Bearer ${token}` },
        body: { accountNo: `BENCH-${tenant}`, accountName: `Bench tenant ${tenant}`, crProcessId: tenant },
      }),
    );
  }

  const clients = [0, 1].map(() => new pg.Client({ connectionString: platform.databaseUrl }));
  onCleanup(() => Promise.all(clients.map((client) => client.end().catch(() => undefined))).then(() => undefined));
  await Promise.all(clients.map((client) => client.connect()));
  const seedStart = performance.now();
  const times = await seedTexts(clients, tenants, perTenant);
  const seedMs = performance.now() - seedStart;
  const [owner] = clients as [pg.Client, pg.Client];
  const { rows: sizes } = await owner.query<{ files: string; texts: string; words: string; size: string }>(
    `select (select count(*) from dms.dms_file) as files, (select count(*) from dms.dms_file_text) as texts,
            (select count(*) from dms.dms_text_word where cr_process_id = $1) as words,
            pg_size_pretty(pg_total_relation_size('dms.dms_file_text') + pg_total_relation_size('dms.dms_file')) as size`,
    [TENANT],
  );
  const size = sizes[0];
  console.log(
    `# seed: ${fmt(seedMs / 1000, 1)} s (pages ${fmt(times.pages / 1000, 1)} s, insert ${fmt(times.insert / 1000, 1)} s, indexes ${fmt(times.indexes / 1000, 1)} s, ` +
      `vacuum analyze ${fmt(times.vacuum / 1000, 1)} s): ${fmt(Number(size?.files))} files, ${fmt(Number(size?.texts))} texts, ` +
      `${fmt(Number(size?.words))} lexemes of tenant ${TENANT}, ${size?.size} on disk`,
  );

  // what the data holds: the files of the tenant whose text has the word (ids multiples of 100)
  const { rows: matching } = await owner.query<{ n: string }>(
    `select count(*) as n from dms.dms_file_text where cr_process_id = $1 and search @@ to_tsquery('dms.english_folded', $2)`,
    [TENANT, COMMON_WORD],
  );
  const matches = Number(matching[0]?.n);
  if (matches !== perTenant / 100) throw new BenchError(`seed: ${matches} files of tenant ${TENANT} hold '${COMMON_WORD}', not ${perTenant / 100}`);
  const url = `${platform.url}/api/dms-file/search?crProcessId=${TENANT}&searchTerm=${COMMON_WORD}`;
  const headers = { authorization: `Bearer ${token}` };
  const check = await expectStatus('GET /api/dms-file/search', http('GET', url, { headers }));
  const files = check.json as FileHit[];
  const expected = Math.min(SEARCH_LIMIT, matches);
  const wrong = files.find((file) => file.crProcessId !== TENANT || file.id % 100 !== 0 || file.id > perTenant || !file.searchRank);
  if (!Array.isArray(files) || files.length !== expected || wrong) {
    throw new BenchError(
      `the search answered ${Array.isArray(files) ? files.length : 'no array of'} files (expected ${expected}, each of tenant ${TENANT} whose text holds the word, ranked)` +
        (wrong ? `; e.g. ${JSON.stringify(wrong).slice(0, 300)}` : ''),
    );
  }
  if (!files[0]?.searchSnippet?.includes(`<mark>${COMMON_WORD}</mark>`)) {
    throw new BenchError(`the first hit's snippet does not mark the word: ${JSON.stringify(files[0]).slice(0, 500)}`);
  }
  console.log(
    `# GET /api/dms-file/search?crProcessId=${TENANT}&searchTerm=${COMMON_WORD}: ${fmt(matches)} files match (1 %), answered ${files.length} ` +
      `(${fmt(check.text.length / 1024)} KB), ${files.filter((file) => file.searchSnippet).length} with a snippet; first snippet: ${files[0].searchSnippet?.slice(0, 120)}…`,
  );

  // Where the time goes: the service's two statements run here as the owner, one after the other
  // (dms-file.operations.ts searchDmsFiles): the match of names, descriptions and tags, and the
  // text search (searchText: match, rank, snippets). Then the plan of the text match alone.
  let recorded: string[] | undefined;
  const orm: MikroORM | undefined = await createOrm({
    url: platform.databaseUrl,
    schema: SCHEMA,
    entities,
    migrationsDir,
    poolSize: 1,
    onQuery: (sql, params) => {
      recorded?.push(orm ? orm.em.getPlatform().formatQuery(sql, params as unknown[]) : sql);
      return sql;
    },
  });
  onCleanup(() => orm.close());
  const statements = {
    names: async () =>
      orm.em
        .fork()
        .find(
          DmsFileEntity,
          { crProcessId: TENANT, ...liveOnly(dmsFile), ...searchCondition(['originalFileName', 'description', 'tags'], COMMON_WORD) } as never,
          {
            orderBy: { id: 'asc' } as never,
            limit: SEARCH_LIMIT,
          },
        ),
    text: async () => searchText(orm.em.fork(), TENANT, COMMON_WORD, {}, SEARCH_LIMIT),
  };
  // the text search as the service runs it: the serving role, in the tenant's scope (the tenant wall's policies)
  const servingUrl = platform.platform.env.DATABASE_URL;
  if (!servingUrl || servingUrl === platform.databaseUrl) throw new BenchError('the platform serves as the owner: no wall to run the statement behind');
  const serving = await createOrm({ url: servingUrl, schema: SCHEMA, entities, migrationsDir, poolSize: 1 });
  onCleanup(() => serving.close());
  const walled = async () => {
    const hits = await searchText(scopedFork(serving, { tenants: [TENANT] }), TENANT, COMMON_WORD, {}, SEARCH_LIMIT);
    if (hits.length !== Math.min(SEARCH_LIMIT, matches))
      throw new BenchError(`searchText behind the wall found ${hits.length} files, not ${Math.min(SEARCH_LIMIT, matches)}`);
    return hits;
  };
  const statementMs: Record<string, number> = {};
  for (const [name, run] of Object.entries({ ...statements, walled })) {
    await run();
    const ms: number[] = [];
    for (let i = 0; i < (name === 'walled' ? 3 : 20); i++) {
      const started = performance.now();
      await run();
      ms.push(performance.now() - started);
    }
    statementMs[name] = percentile(
      ms.sort((a, b) => a - b),
      0.5,
    );
  }
  // the names' statement as MikroORM sends it, and its plan
  recorded = [];
  await statements.names();
  const namesSql = recorded.find((sql) => sql.includes('"dms_file"'));
  recorded = undefined;
  const { rows: namesPlan } = namesSql ? await owner.query<{ 'QUERY PLAN': string }>(`explain analyze ${namesSql}`) : { rows: [] };
  const wallPlan = await scopedFork(serving, { tenants: [TENANT] }).transactional((em) =>
    em.execute<{ 'QUERY PLAN': string }[]>(
      `explain analyze select file_id from dms.dms_file_text where cr_process_id = ? and search @@ websearch_to_tsquery('dms.english_folded', ?)`,
      [TENANT, COMMON_WORD],
    ),
  );
  console.log(
    `# the text match behind the wall (serving role, tenant ${TENANT}'s scope), plan: ${wallPlan
      .map((row) => row['QUERY PLAN'].trim())
      .filter((line) => /Scan|Cond|Filter|Execution Time/.test(line))
      .join('; ')}`,
  );
  console.log(`# names, descriptions, tags: ${namesSql ?? '(not recorded)'}`);
  console.log(
    `#   plan: ${namesPlan
      .map((row) => row['QUERY PLAN'].trim())
      .filter((line) => /Scan|Execution Time|Rows Removed/.test(line))
      .join('; ')}`,
  );
  const { rows: plan } = await owner.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, buffers) select file_id, ts_rank(search, q) as rank from dms.dms_file_text, websearch_to_tsquery('dms.english_folded', $2) q
      where cr_process_id = $1 and search @@ q order by rank desc, file_id limit ${SEARCH_LIMIT}`,
    [TENANT, COMMON_WORD],
  );
  console.log(
    `# the service's statements alone, as the owner (p50 of 20): names, descriptions, tags ${fmt(statementMs.names ?? NaN, 1)} ms, text search ${fmt(statementMs.text ?? NaN, 1)} ms; ` +
      `the text search as the serving role in tenant ${TENANT}'s scope (the wall on, p50 of 3) ${fmt(statementMs.walled ?? NaN, 1)} ms; ` +
      `the text match and rank alone (explain analyze): ${plan
        .map((row) => row['QUERY PLAN'])
        .filter((line) => /Execution Time|Bitmap Index Scan/.test(line))
        .map((line) => line.trim())
        .join('; ')}`,
  );

  // one at a time first: a search slower than the rate's period cannot be measured open loop at that rate
  const sequential: number[] = [];
  const refused: string[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const answer = await http('GET', url, { headers });
    sequential.push(performance.now() - started);
    if (answer.status !== 200) refused.push(`HTTP ${answer.status} after ${fmt(performance.now() - started)} ms: ${answer.text.slice(0, 200)}`);
  }
  console.log(
    `# 5 searches one at a time through the gateway: ${sequential.map((ms) => fmt(ms)).join(', ')} ms${refused.length > 0 ? `; not answered: ${refused.join('; ')}` : ''}`,
  );
  if (refused.length > 0 || median(sequential) > 1000 / rate) {
    const why =
      refused.length > 0
        ? `${refused.length} of 5 searches were not answered 200`
        : `one search alone takes longer than ${fmt(1000 / rate)} ms, the period of ${rate} req/s`;
    console.log(`\nTargets (${scale}; seed ${fmt(seedMs / 1000, 1)} s): not measured open loop: ${why}`);
    printTable(
      ['figure', 'measured', 'target', 'verdict'],
      [
        ['p50', `${fmt(median(sequential))} ms (one at a time)`, `≤ ${TARGETS.p50} ms`, judge(`text search p50 ≤ ${TARGETS.p50} ms`, false)],
        ['p99', `≥ ${fmt(Math.max(...sequential))} ms (one at a time)`, `≤ ${TARGETS.p99} ms`, judge(`text search p99 ≤ ${TARGETS.p99} ms`, false)],
      ],
    );
    return;
  }
  const target = { url, headers };
  if (warmup > 0) await openLoop(target, { rate, seconds: warmup });
  const runs: ReturnType<typeof latencySummary>[] = [];
  for (let round = 1; round <= rounds; round++) {
    const mark = await platform.logMark();
    const run = await openLoop(target, { rate, seconds });
    const summary = latencySummary(run.steady);
    runs.push(summary);
    console.log(
      `# round ${round}: ${run.sent} requests at ${rate}/s, p50 ${fmt(summary.p50, 1)} p90 ${fmt(summary.p90, 1)} p99 ${fmt(summary.p99, 1)} max ${fmt(summary.max, 1)} ms; ` +
        `slowest per second ${run.worstPerSecond.map((ms) => fmt(ms)).join(' ')}`,
    );
    const log = await platform.logSince(mark, 10);
    if (log) console.log(`# platform log of the round:\n${log}`);
  }

  console.log(`\nPer round (ms; ${scale}; open loop, ${rate} req/s, ${seconds} s):`);
  printTable(
    ['round', 'p50', 'p90', 'p99', 'max'],
    runs.map((run, i) => [String(i + 1), fmt(run.p50, 1), fmt(run.p90, 1), fmt(run.p99, 1), fmt(run.max, 1)]),
  );
  const p50 = median(runs.map((run) => run.p50));
  const p99 = median(runs.map((run) => run.p99));
  console.log(`\nTargets (median of ${rounds} rounds; ${scale}; seed ${fmt(seedMs / 1000, 1)} s):`);
  printTable(
    ['figure', 'measured', 'per round', 'target', 'verdict'],
    [
      [
        'p50',
        `${fmt(p50, 1)} ms`,
        runs.map((run) => fmt(run.p50, 1)).join(', '),
        `≤ ${TARGETS.p50} ms`,
        judge(`text search p50 ≤ ${TARGETS.p50} ms`, p50 <= TARGETS.p50),
      ],
      [
        'p99',
        `${fmt(p99, 1)} ms`,
        runs.map((run) => fmt(run.p99, 1)).join(', '),
        `≤ ${TARGETS.p99} ms`,
        judge(`text search p99 ≤ ${TARGETS.p99} ms`, p99 <= TARGETS.p99),
      ],
    ],
  );
});

/**
 * Scenario import: 100,000 business partners imported from one CSV of 20 columns
 * (docs/interface.md#import), the ten a partner has mapped by their labels (a country by its code)
 * and ten more the mapping leaves out, with events on: uploaded through the gateway, started, and
 * timed from the start to DONE as the entity's worker writes them, a chunk's creates in one
 * transaction, each with its event as if created alone. Checked afterwards: every row created
 * once, with its one event.
 * Target: ≤ 60 s for 100,000 rows (judged pro rata for another BENCH_IMPORT_ROWS).
 *
 *   npm run bench -- import
 *   BENCH_IMPORT_ROWS=2000 node bench/import.ts
 *
 * Env: BENCH_IMPORT_ROWS (100000).
 */
import pg from 'pg';
import { BenchError, expectStatus, fmt, http, judge, login, runScenario, startBenchPlatform } from './lib.ts';

const FULL_ROWS = 100_000;
const TARGET_SECONDS = 60;
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? FULL_ROWS);

/** The file: the partner's ten fields by their English labels, then ten columns the mapping leaves out. */
function csvOf(rows: number): string {
  const header = ['Partner code', 'Partner name', 'Partner type', 'Tax number', 'E-mail', 'Phone', 'Country', 'Address', 'Status', 'City'];
  for (let extra = 1; extra <= 10; extra++) header.push(`Note ${extra}`);
  const lines = [header.join(',')];
  for (let row = 0; row < rows; row++) {
    const n = String(row).padStart(6, '0');
    lines.push(`B-${n},Partner ${n},${row % 3 === 0 ? 'Supplier' : 'CUSTOMER'},${n}0,p${n}@example.com,+90 212 ${n},TR,Street ${n},aktif,${',n'.repeat(10)}`);
  }
  return lines.join('\n');
}

await runScenario(`import: ${ROWS} business partners from a CSV of 20 columns, events on`, async () => {
  if (!Number.isSafeInteger(ROWS) || ROWS < 1) throw new BenchError(`BENCH_IMPORT_ROWS must be a positive whole number, not ${process.env.BENCH_IMPORT_ROWS}`);
  const bench = await startBenchPlatform(process.env, {
    workers: true,
    extraEnv: { IMPORT_MAX_BYTES: String(64 * 1024 * 1024), ...(process.env.BENCH_IMPORT_POOL && { DATABASE_POOL_MAX: process.env.BENCH_IMPORT_POOL }) },
  });
  const token = await login(bench);
  const headers = { authorization: `Bearer ${token}` };
  const tenant = 1;
  await expectStatus('a country', http('POST', `${bench.url}/api/country`, { headers, body: { crProcessId: tenant, code: 'TR', name: 'Türkiye' } }));
  const csv = csvOf(ROWS);
  console.log(`# the file: ${ROWS} rows, ${fmt(csv.length / 1024 / 1024, 1)} MiB`);
  const form = new FormData();
  form.append('crProcessId', String(tenant));
  form.append('file', new Blob([csv]), 'partners.csv');
  const uploading = performance.now();
  const uploaded = await fetch(`${bench.url}/api/import/business-partner`, { method: 'POST', headers, body: form });
  const run = (await uploaded.json()) as { id: number; mapping: (string | null)[]; totalRows: number };
  if (uploaded.status !== 201) throw new BenchError(`upload: HTTP ${uploaded.status} ${JSON.stringify(run)}`);
  console.log(`# uploaded and read in ${fmt(performance.now() - uploading)} ms; mapping ${JSON.stringify(run.mapping)}`);
  if (run.totalRows !== ROWS) throw new BenchError(`the run reads ${run.totalRows} rows, not ${ROWS}`);

  const started = performance.now();
  await expectStatus('start', http('POST', `${bench.url}/api/import/business-partner/${run.id}/start`, { headers }));
  let state: { status: string; processed: number; created: number; failed: number; errors: unknown[] };
  let lastPrint = started;
  for (;;) {
    state = JSON.parse((await expectStatus('the run', http('GET', `${bench.url}/api/import/business-partner/${run.id}`, { headers }))).text);
    if (['DONE', 'FAILED', 'CANCELLED'].includes(state.status)) break;
    if (performance.now() - lastPrint > 10_000) {
      lastPrint = performance.now();
      console.log(`#   ${fmt((lastPrint - started) / 1000, 1)} s: ${state.processed} rows`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (performance.now() - started) / 1000;
  if (state.status !== 'DONE' || state.created !== ROWS || state.failed !== 0) {
    throw new BenchError(`the run ended ${state.status}: ${state.created} created, ${state.failed} failed ${JSON.stringify(state.errors.slice(0, 3))}`);
  }
  const db = new pg.Client({ connectionString: bench.databaseUrl });
  await db.connect();
  try {
    const [counts] = (
      await db.query<{ partners: number; events: number }>(
        `select (select count(*)::int from bpm.business_partner where cr_process_id = $1) as partners,
                (select count(*)::int from bpm.bpm_outbox where cr_process_id = $1 and type = 'business-partner.created') as events`,
        [tenant],
      )
    ).rows;
    if (counts?.partners !== ROWS || counts.events !== ROWS) throw new BenchError(`${JSON.stringify(counts)} for ${ROWS} rows`);
  } finally {
    await db.end();
  }
  const target = (TARGET_SECONDS * ROWS) / FULL_ROWS;
  console.log(`\n${ROWS} partners imported in ${fmt(seconds, 1)} s (${fmt(ROWS / seconds)} rows/s), each with its event`);
  console.log(`target ≤ ${fmt(target, 1)} s (60 s per 100,000): ${judge('import', seconds <= target)}`);
});

/**
 * "A worker that dies mid-run leaves no half row; its job is taken again within seconds and the run
 * resumes after its last recorded chunk, the rows written since replayed by their keys"
 * (docs/interface.md#import). A platform of the test's own on a fresh database (its workers
 * supervised, as in production), so that the worker killed is the one running the import.
 */
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import pg from 'pg';
import { unique } from './helpers/factories.ts';
import { supervisedPlatform } from './helpers/supervised-platform.ts';
import { api } from './helpers/platform.ts';

const ROWS = 3000;

test('a bpm-worker killed mid-import: no half-written record, the run resumes and ends DONE with every row once', async (t) => {
  t.timeout(600_000);
  const own = await supervisedPlatform(t, 'import');
  const { baseUrl, token } = own;

  const tenant = 7;
  const prefix = unique('K-');
  const lines = ['partnerCode,partnerName,partnerType'];
  for (let row = 0; row < ROWS; row++) lines.push(`${prefix}-${row},Partner ${row},CUSTOMER`);
  const form = new FormData();
  form.append('crProcessId', String(tenant));
  form.append('file', new Blob([lines.join('\n')]), 'many.csv');
  const uploaded = await fetch(`${baseUrl}/api/import/business-partner`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  t.is(uploaded.status, 201);
  const { id } = (await uploaded.json()) as { id: number };
  t.is((await api('POST', `/api/import/business-partner/${id}/start`, { baseUrl, token, raw: '' })).status, 200);

  const runOf = async () =>
    (await api('GET', `/api/import/business-partner/${id}`, { baseUrl, token })).body as {
      status: string;
      processed: number;
      created: number;
      failed: number;
      unchanged: number;
    };
  // killed once a chunk is recorded and rows are still to come
  let run = await runOf();
  for (const deadline = Date.now() + 120_000; !(run.status === 'RUNNING' && run.processed >= 200) && Date.now() < deadline; run = await runOf())
    await delay(50);
  t.is(run.status, 'RUNNING', `the run before the kill: ${JSON.stringify(run)}`);
  t.true(run.processed < ROWS, `the run finished before the kill: ${JSON.stringify(run)}`);
  const killedAt = run.processed;
  process.kill(own.pids['bpm-worker']!, 'SIGKILL');

  for (const deadline = Date.now() + 300_000; !['DONE', 'FAILED', 'CANCELLED'].includes(run.status) && Date.now() < deadline; run = await runOf())
    await delay(250);
  t.like(run, { status: 'DONE', processed: ROWS, failed: 0 });
  t.true((own.restarts.get('bpm-worker') ?? 0) >= 1, 'the bpm-worker was restarted');
  t.log(`killed after ${killedAt} rows recorded; ended ${JSON.stringify(run)}`);

  const db = new pg.Client({ connectionString: own.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  // every row once, each with exactly its one create event: none written twice, none without its event
  const [partners] = (
    await db.query(`select count(*)::int as n, count(distinct partner_code)::int as codes from bpm.business_partner where cr_process_id = $1`, [tenant])
  ).rows;
  t.deepEqual(partners, { n: ROWS, codes: ROWS });
  const events = await db.query(
    `select p.id, count(o.seq)::int as events from bpm.business_partner p
       left join bpm.bpm_outbox o on o.cr_process_id = p.cr_process_id and o.entity = 'business-partner' and o.entity_key = p.id::text
      where p.cr_process_id = $1 group by p.id having count(o.seq) <> 1`,
    [tenant],
  );
  t.deepEqual(events.rows, []);
  // the counts say every row: created, or replayed (created before the kill, after the last record)
  t.is(run.created, ROWS);
  // the job's own state says it was taken again
  const jobs = await db.query(`select state, retry_count from pgboss.job where name = 'bpm.import' and data->>'runId' = $1`, [String(id)]);
  t.is(jobs.rows.length, 1);
  t.like(jobs.rows[0], { state: 'completed' });
  t.true(Number(jobs.rows[0].retry_count) >= 1, JSON.stringify(jobs.rows[0]));
});

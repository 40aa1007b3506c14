/**
 * An import's chunk written as one batch (docs/adr/0157-importing-files-into-the-registry.md): each
 * record still gets its one event and its own idempotency record with its answer, as if created
 * alone; a chunk with a row the database refuses is written again row by row, so that exactly that
 * row reports its error and the others are created. Which way a chunk went is read from the rows'
 * transaction ids (xmin): one for a batch's rows (written by one flush), one per row alone.
 */
import test from 'ava';
import pg from 'pg';
import type { ImportRun } from '@platform/client/schema.d.ts';
import { adminSession, createPartner, freshTenant, unique } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';

/** Rows of the file: a first chunk of 200 (one row a code the database has) and a second of 60. */
const ROWS = 260;
const CHUNK = 200;
const BAD = 100;

async function settled(id: number, token: string, states: string[]): Promise<ImportRun> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await api('GET', `/api/import/business-partner/${id}`, { token });
    if (res.status !== 200) throw new Error(`get run: ${res.status} ${res.text}`);
    if (states.includes(res.body.status)) return res.body as ImportRun;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${res.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('a batched chunk gives each record its event and key; a chunk with a duplicate code against the database reports that row alone', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const existing = await createPartner(tenant);
  const prefix = unique('BT-');
  const codes = Array.from({ length: ROWS }, (_, index) => (index === BAD ? existing.partnerCode : `${prefix}-${index}`));
  const csv = ['partnerCode,partnerName,partnerType', ...codes.map((code, index) => `${code},Partner ${index},CUSTOMER`)].join('\n');
  const form = new FormData();
  form.append('crProcessId', String(tenant));
  form.append('file', new Blob([csv]), 'batch.csv');
  const uploaded = await fetch(`${platform.url}/api/import/business-partner`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  t.is(uploaded.status, 201);
  const { id } = (await uploaded.json()) as ImportRun;
  const badRow = BAD + 2;
  const errorsOf = (run: ImportRun) => run.errors.map(({ row, field, code }) => ({ row, field, code }));

  // the dry run: the same counts and error, nothing written
  t.is((await api('POST', `/api/import/business-partner/${id}/check`, { token, raw: '' })).status, 200);
  const checked = await settled(id, token, ['CHECKED', 'FAILED']);
  t.like(checked, { status: 'CHECKED', processed: ROWS, created: ROWS - 1, failed: 1 });
  t.deepEqual(errorsOf(checked), [{ row: badRow, field: 'partnerCode', code: 'SVC-SYS-4005' }]);
  const listed = await api('POST', '/api/business-partner/list', { token, body: { page: 0, size: 1, filter: { crProcessId: tenant } } });
  t.is(listed.body.totalElements, 1);

  t.is((await api('POST', `/api/import/business-partner/${id}/start`, { token, raw: '' })).status, 200);
  const done = await settled(id, token, ['DONE', 'FAILED', 'CANCELLED']);
  t.like(done, { status: 'DONE', processed: ROWS, created: ROWS - 1, failed: 1 });
  t.deepEqual(errorsOf(done), [{ row: badRow, field: 'partnerCode', code: 'SVC-SYS-4005' }]);

  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  const imported = codes.filter((_, index) => index !== BAD);
  const partners = await db.query<{ id: string; code: string; tx: string; events: number }>(
    `select p.id, p.partner_code as code, p.xmin::text as tx, count(o.seq)::int as events
       from bpm.business_partner p
       left join bpm.bpm_outbox o on o.cr_process_id = p.cr_process_id and o.type = 'business-partner.created' and o.entity_key = p.id::text
      where p.cr_process_id = $1 and p.partner_code = any($2) group by p.id`,
    [tenant, imported],
  );
  t.is(partners.rows.length, ROWS - 1);
  // each record its one event
  t.deepEqual(
    partners.rows.filter((partner) => partner.events !== 1),
    [],
  );
  // each record its idempotency key, `import:<run>:<row>`, holding the answer its create gave
  const keys = await db.query<{ key: string; code: string; id: string }>(
    `select idempotency_key as key, answer->>'partnerCode' as code, answer->>'id' as id from bpm.bpm_idempotency where owner = $1 and idempotency_key like $2`,
    [platform.adminUser, `import:${id}:%`],
  );
  const byCode = new Map(partners.rows.map((partner) => [partner.code, partner]));
  t.deepEqual(keys.rows.map(({ key }) => key).sort(), codes.flatMap((_, index) => (index === BAD ? [] : [`import:${id}:${index + 2}`])).sort());
  t.deepEqual(
    keys.rows.filter(({ key, code, id: answered }) => code !== codes[Number(key.split(':')[2]) - 2] || byCode.get(code)?.id !== answered),
    [],
  );
  // the second chunk in one transaction; the first, refused as a batch, one transaction per row
  const txs = (from: number, to: number) => new Set(imported.slice(from, to).map((code) => byCode.get(code)?.tx)).size;
  t.is(txs(CHUNK - 1, ROWS - 1), 1);
  t.is(txs(0, CHUNK - 1), CHUNK - 1);
});

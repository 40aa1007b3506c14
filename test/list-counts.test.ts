/**
 * The unfiltered business-partner list reads totalElements from the per-tenant count its table's
 * triggers keep (docs/adr/0040-lists-at-scale-the-unfiltered-count.md); it must stay exact through creates, deletes,
 * a bulk insert and a row moved between tenants.
 */
import test from 'ava';
import { adminSession, createPartner, freshTenant } from './helpers/factories.ts';
import { withDb } from './helpers/db.ts';
import { api } from './helpers/platform.ts';

async function total(crProcessId: number, filter: Record<string, unknown> = {}): Promise<number> {
  const { token } = await adminSession();
  const res = await api('POST', '/api/business-partner/list', { token, body: { page: 0, size: 1, filter: { crProcessId, ...filter } } });
  if (res.status !== 200) throw new Error(`list: HTTP ${res.status}`);
  return res.body.totalElements;
}

test('an unfiltered list counts creates and deletes exactly, and agrees with a filtered count', async (t) => {
  const tenant = freshTenant();
  t.is(await total(tenant), 0);
  const created = [];
  for (let i = 0; i < 3; i++) created.push(await createPartner(tenant));
  t.is(await total(tenant), 3);
  const { token } = await adminSession();
  t.is((await api('DELETE', `/api/business-partner/${created[0].id}`, { token })).status, 204);
  t.is(await total(tenant), 2);
  t.is(await total(tenant, { status: true }), 2, 'the kept count and count(*) agree');
});

test('the count follows statements the API never makes: a bulk insert, a rolled-back insert, a row moved to another tenant', async (t) => {
  const [from, to] = [freshTenant(), freshTenant()];
  await createPartner(from);
  await withDb(async (db) => {
    const insert = `insert into bpm.business_partner (cr_process_id, created_at, updated_at, partner_code, partner_name, partner_type)
      select $1::bigint, now(), now(), 'BULK-' || g, 'Bulk ' || g, 'CUSTOMER' from generate_series(1, $2::int) as g`;
    await db.query(insert, [from, 50]);
    await db.query('begin');
    await db.query(insert.replace("'BULK-'", "'GONE-'"), [from, 7]);
    await db.query('rollback');
    await db.query(`update bpm.business_partner set cr_process_id = $2 where cr_process_id = $1 and partner_code in ('BULK-1', 'BULK-2')`, [from, to]);
  });
  t.is(await total(from), 49);
  t.is(await total(to), 2);
  t.is((await total(from, { partnerType: 'CUSTOMER' })) + (await total(from, { partnerType: 'SUPPLIER' })) + (await total(from, { partnerType: 'BOTH' })), 49);
});

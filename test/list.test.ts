/** The list rules of docs/interface.md#lists, docs/interface.md#records, on business partners and branches. */
import test from 'ava';
import { adminSession, createBranch, createPartner, freshTenant, unique } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

async function list(path: string, body: unknown) {
  const { token } = await adminSession();
  return api('POST', `/api/${path}/list`, { token, body });
}

async function partners(count: number, crProcessId: number, name: (i: number) => string = (i) => `Partner ${i}`) {
  const created = [];
  for (let i = 0; i < count; i++) created.push(await createPartner(crProcessId, { partnerName: name(i) }));
  return created;
}

test('page arithmetic follows Spring Data: totalPages = ceil(total / size), first, last, empty', async (t) => {
  const tenant = freshTenant();
  await partners(5, tenant);
  const page0 = await list('business-partner', { page: 0, size: 2, filter: { crProcessId: tenant } });
  t.is(page0.status, 200);
  t.like(page0.body, { page: 0, size: 2, totalElements: 5, totalPages: 3, first: true, last: false, empty: false });
  t.is(page0.body.content.length, 2);
  const page2 = await list('business-partner', { page: 2, size: 2, filter: { crProcessId: tenant } });
  t.like(page2.body, { page: 2, totalPages: 3, first: false, last: true, empty: false });
  t.is(page2.body.content.length, 1);
  // "A page past the end is an empty page with the true totalElements."
  const past = await list('business-partner', { page: 9, size: 2, filter: { crProcessId: tenant } });
  t.like(past.body, { page: 9, totalElements: 5, totalPages: 3, last: true, empty: true, content: [] });
  const none = await list('business-partner', { page: 0, size: 20, filter: { crProcessId: freshTenant() } });
  t.like(none.body, { totalElements: 0, totalPages: 0, first: true, last: true, empty: true, content: [] });
});

test('size defaults to 20; page and size bounds are 400 SVC-SYS-2001', async (t) => {
  const tenant = freshTenant();
  const defaulted = await list('business-partner', { filter: { crProcessId: tenant } });
  t.is(defaulted.status, 200);
  t.like(defaulted.body, { page: 0, size: 20 });
  t.is((await list('business-partner', { page: 0, size: 500, filter: { crProcessId: tenant } })).status, 200);
  for (const bad of [{ size: 501 }, { size: 0 }, { size: -1 }, { page: -1 }, { page: 1.5 }, { size: '20x' }, { page: 2 ** 31 }]) {
    const res = await list('business-partner', { page: 0, size: 20, ...bad, filter: { crProcessId: tenant } });
    t.is(res.status, 400, JSON.stringify(bad));
    t.is(res.body.error_code, 'SVC-SYS-2001');
  }
});

test('ties are broken by id ascending, so pages never overlap', async (t) => {
  const tenant = freshTenant();
  const created = await partners(7, tenant, () => 'Same name');
  const seen: number[] = [];
  for (let page = 0; page < 4; page++) {
    const res = await list('business-partner', { page, size: 2, sorts: [{ field: 'partnerName', direction: 'ASC' }], filter: { crProcessId: tenant } });
    seen.push(...res.body.content.map((p: { id: number }) => p.id));
  }
  t.deepEqual(
    seen,
    created.map((p) => p.id),
  );
});

test('sorts apply in array order and take entity property names only', async (t) => {
  const tenant = freshTenant();
  await createPartner(tenant, { partnerName: 'B', partnerType: 'SUPPLIER' });
  await createPartner(tenant, { partnerName: 'A', partnerType: 'SUPPLIER' });
  await createPartner(tenant, { partnerName: 'C', partnerType: 'CUSTOMER' });
  const res = await list('business-partner', {
    sorts: [
      { field: 'partnerType', direction: 'DESC' },
      { field: 'partnerName', direction: 'ASC' },
    ],
    filter: { crProcessId: tenant },
  });
  t.deepEqual(
    res.body.content.map((p: { partnerName: string }) => p.partnerName),
    ['A', 'B', 'C'],
  );
  // "anything else (a column name, an expression) is 400 SVC-SYS-2001"
  for (const sort of [
    { field: 'partner_name' },
    { field: 'id; drop table x' },
    { field: 'lower(partnerName)' },
    { field: 'partnerName', direction: 'UP' },
    { field: 'password' },
  ]) {
    const bad = await list('business-partner', { sorts: [sort], filter: { crProcessId: tenant } });
    t.is(bad.status, 400, JSON.stringify(sort));
    t.is(bad.body.error_code, 'SVC-SYS-2001');
  }
});

test('filters: equality on scalar fields, inclusive From/To ranges, unknown keys refused', async (t) => {
  const tenant = freshTenant();
  const [p1, p2, p3] = await partners(3, tenant);
  const { token } = await adminSession();
  const typed = await api('PUT', `/api/business-partner/${p2.id}`, { token, body: { version: 0, partnerType: 'BOTH' } });
  t.is(typed.status, 200, typed.text);
  const both = await list('business-partner', { filter: { crProcessId: tenant, partnerType: 'BOTH' } });
  t.deepEqual(
    both.body.content.map((p: { id: number }) => p.id),
    [p2.id],
  );
  const range = await list('business-partner', { filter: { crProcessId: tenant, idFrom: p2.id, idTo: p3.id } });
  t.deepEqual(
    range.body.content.map((p: { id: number }) => p.id),
    [p2.id, p3.id],
  );
  const since = await list('business-partner', { filter: { crProcessId: tenant, createdAtFrom: p1.createdAt, createdAtTo: p1.createdAt } });
  t.deepEqual(
    since.body.content.map((p: { id: number }) => p.id),
    [p1.id],
  );
  // equality with null matches the rows where the field is null, and only those
  const taxed = await api('PUT', `/api/business-partner/${p3.id}`, { token, body: { version: 0, taxNumber: 'TX-NULL-FILTER' } });
  t.is(taxed.status, 200, taxed.text);
  const nulls = await list('business-partner', { filter: { crProcessId: tenant, taxNumber: null } });
  t.is(nulls.status, 200, nulls.text);
  t.deepEqual(
    nulls.body.content.map((p: { id: number }) => p.id),
    [p1.id, p2.id],
  );
  t.is(nulls.body.totalElements, 2);
  const withTax = await list('business-partner', { filter: { crProcessId: tenant, taxNumber: 'TX-NULL-FILTER' } });
  t.deepEqual(
    withTax.body.content.map((p: { id: number }) => p.id),
    [p3.id],
  );
  for (const filter of [
    { colour: 'red' },
    { partner_type: 'BOTH' },
    { partnerNameFrom: 'A' },
    { password: 'x' },
    { id: 'one' },
    { partnerType: { $ne: 'x' } },
    { createdAtFrom: 'yesterday' },
  ]) {
    const bad = await list('business-partner', { filter: { crProcessId: tenant, ...filter } });
    t.is(bad.status, 400, JSON.stringify(filter));
    t.is(bad.body.error_code, 'SVC-SYS-2001');
  }
});

test('a list without filter.crProcessId is 400 SVC-SYS-2002', async (t) => {
  for (const body of [
    { page: 0, size: 20 },
    { page: 0, size: 20, filter: {} },
    { page: 0, size: 20, filter: { partnerType: 'BOTH' } },
  ]) {
    const res = await list('business-partner', body);
    t.is(res.status, 400);
    t.is(res.body.error_code, 'SVC-SYS-2002');
  }
});

test('searchTerm is a case-insensitive substring over name and code fields, with % and _ literal', async (t) => {
  const tenant = freshTenant();
  const percent = await createPartner(tenant, { partnerName: 'Discount 100% Ltd' });
  const underscore = await createPartner(tenant, { partnerName: 'snake_case GmbH' });
  await createPartner(tenant, { partnerName: 'Discount 1000 Ltd' });
  await createPartner(tenant, { partnerName: 'snakeXcase GmbH' });
  const search = async (searchTerm: string) =>
    (await list('business-partner', { searchTerm, filter: { crProcessId: tenant } })).body.content.map((p: { id: number }) => p.id);
  t.deepEqual(await search('0%'), [percent.id]);
  t.deepEqual(await search('e_c'), [underscore.id]);
  t.deepEqual(await search('%'), [percent.id]);
  t.is((await search('discount')).length, 2);
  t.is((await search('GMBH')).length, 2);
  const code = await createPartner(tenant, { partnerCode: unique('CODE-') });
  t.deepEqual(await search(code.partnerCode.toLowerCase()), [code.id]);
  t.deepEqual(await search("' or 1=1 --"), []);
});

test('searchTerm folds the dotted and dotless I: IŞIK, ışık, işik and İŞİK find "Işık" and "İSTANBUL IŞIK"; regular-expression characters stay literal', async (t) => {
  const tenant = freshTenant();
  const isik = await createPartner(tenant, { partnerName: 'Işık Lojistik' });
  const capital = await createPartner(tenant, { partnerName: 'İSTANBUL IŞIK A.Ş.' });
  const latin = await createPartner(tenant, { partnerName: 'Isak Holding' });
  const dotted = await createPartner(tenant, { partnerName: 'Dilek (x+y)* [a] {b} ^$|\\ a.b' });
  const search = async (searchTerm: string) =>
    (await list('business-partner', { searchTerm, filter: { crProcessId: tenant } })).body.content
      .map((p: { id: number }) => p.id)
      .sort((a: number, b: number) => a - b);
  const both = [isik.id, capital.id].sort((a, b) => a - b);
  for (const term of ['IŞIK', 'ışık', 'işik', 'Işık', 'İŞİK', 'ışIk']) t.deepEqual(await search(term), both, term);
  t.deepEqual(await search('istanbul'), [capital.id], 'İ of the name is found by i');
  t.deepEqual(await search('ısak'), [latin.id], 'ı of the term finds the I of a Latin name');
  t.deepEqual(await search('işık lojistik'), [isik.id]);
  for (const term of ['(x+y)*', '[a]', '{b}', '^$|\\', 'a.b']) t.deepEqual(await search(term), [dotted.id], term);
  t.deepEqual(await search('a?b'), [], '? is literal');
  t.deepEqual(await search('k.l'), [], '. is literal');
});

test('branches list and filter by their partner', async (t) => {
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  const other = await createPartner(tenant);
  const b1 = await createBranch(tenant, partner.id);
  await createBranch(tenant, other.id);
  const res = await list('branch', { filter: { crProcessId: tenant, businessPartnerId: partner.id } });
  t.deepEqual(
    res.body.content.map((b: { id: number }) => b.id),
    [b1.id],
  );
});

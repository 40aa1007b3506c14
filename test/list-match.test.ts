/**
 * Text filters by prefix and containment (docs/interface.md#lists,
 * docs/adr/0119-text-filters-match-by-prefix-or.md), on business partners: partnerCode and taxNumber
 * by prefix, partnerName by containment, as the partner's list declares them.
 */
import test from 'ava';
import { accountFor, adminSession, createPartner, freshTenant, unique, userWithRoles } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

async function list(filter: Record<string, unknown>, token?: string) {
  return api('POST', '/api/business-partner/list', { token: token ?? (await adminSession()).token, body: { page: 0, size: 50, filter } });
}

/** The partnerCodes a filter finds, sorted. */
async function codes(filter: Record<string, unknown>, token?: string): Promise<string[]> {
  const res = await list(filter, token);
  if (res.status !== 200) throw new Error(`list: ${res.status} ${res.text}`);
  return res.body.content.map((partner: { partnerCode: string }) => partner.partnerCode).sort();
}

test('taxNumberPrefix finds the tax numbers that start with it; filter.taxNumber stays equality', async (t) => {
  const tenant = freshTenant();
  await createPartner(tenant, { partnerCode: 'T-1', taxNumber: '123456789' });
  await createPartner(tenant, { partnerCode: 'T-2', taxNumber: '1234500000' });
  await createPartner(tenant, { partnerCode: 'T-3', taxNumber: '0123456789' });
  t.deepEqual(await codes({ crProcessId: tenant, taxNumberPrefix: '12345' }), ['T-1', 'T-2']);
  t.deepEqual(await codes({ crProcessId: tenant, taxNumberPrefix: '123456' }), ['T-1']);
  // "filter: ... equality on any scalar field of the entity" (decisions.md §4): the exact key stays exact
  t.deepEqual(await codes({ crProcessId: tenant, taxNumber: '12345' }), []);
  t.deepEqual(await codes({ crProcessId: tenant, taxNumber: '123456789' }), ['T-1']);
  // an empty prefix narrows nothing
  t.deepEqual(await codes({ crProcessId: tenant, taxNumberPrefix: '' }), ['T-1', 'T-2', 'T-3']);
});

test('partnerCodePrefix ignores case and takes %, _ and \\ literally', async (t) => {
  const tenant = freshTenant();
  for (const code of ['BP-Abc', 'bp-abd', 'A%1', 'AB1', 'A_2', 'AX2', 'A\\3', 'A3']) await createPartner(tenant, { partnerCode: code });
  t.deepEqual(await codes({ crProcessId: tenant, partnerCodePrefix: 'bp-AB' }), ['BP-Abc', 'bp-abd']);
  t.deepEqual(await codes({ crProcessId: tenant, partnerCodePrefix: 'A%' }), ['A%1']);
  t.deepEqual(await codes({ crProcessId: tenant, partnerCodePrefix: 'A_' }), ['A_2']);
  t.deepEqual(await codes({ crProcessId: tenant, partnerCodePrefix: 'A\\' }), ['A\\3']);
  t.deepEqual(await codes({ crProcessId: tenant, partnerCodePrefix: '%' }), []);
});

test('a prefix folds the I as searchTerm does: I, İ, ı and i are one letter (IŞIK, ışık and işik find Işık)', async (t) => {
  const tenant = freshTenant();
  await createPartner(tenant, { partnerCode: 'IŞIK-1', taxNumber: 'IŞ-001' });
  await createPartner(tenant, { partnerCode: 'işlem-2', taxNumber: 'iş-002' });
  await createPartner(tenant, { partnerCode: 'İZMİR-3', taxNumber: 'İZ-003' });
  await createPartner(tenant, { partnerCode: 'US-4', taxNumber: 'UŞ-004' });
  // docs/adr/0100-searchterm-folds-the-dotted.md: "IŞIK", "ışık" and "işik" find "Işık"
  for (const term of ['ış', 'IŞ', 'iş', 'İŞ', 'işi', 'IŞI', 'ışık']) {
    const expected = term.length > 2 ? ['IŞIK-1'] : ['IŞIK-1', 'işlem-2'];
    t.deepEqual(await codes({ crProcessId: tenant, partnerCodePrefix: term }), expected, `partnerCodePrefix ${term}`);
  }
  for (const term of ['ış', 'IŞ', 'İş'])
    t.deepEqual(await codes({ crProcessId: tenant, taxNumberPrefix: term }), ['IŞIK-1', 'işlem-2'], `taxNumberPrefix ${term}`);
  t.deepEqual(await codes({ crProcessId: tenant, partnerCodePrefix: 'izmir' }), ['İZMİR-3']);
  t.deepEqual(await codes({ crProcessId: tenant, partnerCodePrefix: 'IZMIR' }), ['İZMİR-3']);
  // the I stands for itself only: U is not I
  t.deepEqual(await codes({ crProcessId: tenant, taxNumberPrefix: 'uş' }), ['US-4']);
});

test('partnerNameContains finds the text anywhere in the name, literally, the I folded', async (t) => {
  const tenant = freshTenant();
  await createPartner(tenant, { partnerCode: 'N-1', partnerName: 'Kartal Lojistik Ltd.' });
  await createPartner(tenant, { partnerCode: 'N-2', partnerName: 'Işık Gıda' });
  await createPartner(tenant, { partnerCode: 'N-3', partnerName: '50% İndirim' });
  await createPartner(tenant, { partnerCode: 'N-4', partnerName: '500 Indirim' });
  t.deepEqual(await codes({ crProcessId: tenant, partnerNameContains: 'lojist' }), ['N-1']);
  t.deepEqual(await codes({ crProcessId: tenant, partnerNameContains: 'IŞIK' }), ['N-2']);
  t.deepEqual(await codes({ crProcessId: tenant, partnerNameContains: '0%' }), ['N-3']);
  t.deepEqual(await codes({ crProcessId: tenant, partnerNameContains: '0_' }), []);
  t.deepEqual(await codes({ crProcessId: tenant, partnerNameContains: 'indirim' }), ['N-3', 'N-4']);
  t.deepEqual(await codes({ crProcessId: tenant, partnerNameContains: '.*' }), []);
});

test('a NUL, a non-text value or a match the list does not declare is 400 SVC-SYS-2001', async (t) => {
  const tenant = freshTenant();
  for (const filter of [
    { taxNumberPrefix: 'a\u0000b' },
    { partnerNameContains: 12 },
    { partnerCodeContains: 'x' },
    { partnerNamePrefix: 'x' },
    { partnerTypePrefix: 'C' },
    { emailPrefix: 'x' },
  ]) {
    const res = await list({ crProcessId: tenant, ...filter });
    t.is(res.status, 400, JSON.stringify(filter));
    t.is(res.body.error_code, 'SVC-SYS-2001', JSON.stringify(filter));
  }
});

test('a prefix finds only the tenant’s own records, and a tenant user may not name another tenant', async (t) => {
  const [a, b] = [await accountFor(freshTenant()), await accountFor(freshTenant())];
  const code = unique('ISO-');
  await createPartner(a.crProcessId, { partnerCode: `${code}-a`, taxNumber: '777000111' });
  await createPartner(b.crProcessId, { partnerCode: `${code}-b`, taxNumber: '777000222' });
  const user = await userWithRoles(a, ['business-partner:read']);
  t.deepEqual(await codes({ crProcessId: a.crProcessId, partnerCodePrefix: code }, user.token), [`${code}-a`]);
  t.deepEqual(await codes({ crProcessId: a.crProcessId, taxNumberPrefix: '777000' }, user.token), [`${code}-a`]);
  const other = await list({ crProcessId: b.crProcessId, partnerCodePrefix: code }, user.token);
  t.is(other.status, 403, other.text);
  // the super user names each tenant in turn and sees that tenant's record only
  t.deepEqual(await codes({ crProcessId: b.crProcessId, partnerCodePrefix: code }), [`${code}-b`]);
});

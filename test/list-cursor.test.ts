/**
 * Cursor paging beside offset paging (docs/interface.md#lists,
 * docs/adr/0154-cursor-paging-over-the-sort.md): `after` is "" for the first page, then the
 * previous page's `nextAfter`; a cursor page is read from its place in the sort and not counted.
 * On business partners: their sorts cover a unique code, a required enum, a nullable text and
 * mixed directions.
 */
import test from 'ava';
import { accountFor, adminSession, createPartner, freshTenant, unique, userWithRoles } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';

type Sort = { field: string; direction: 'ASC' | 'DESC' };
type Partner = { id: number; partnerCode: string; partnerType: string; taxNumber?: string | null };

async function token(): Promise<string> {
  return (await adminSession()).token;
}

async function list(body: Record<string, unknown>, as?: string) {
  return api('POST', '/api/business-partner/list', { token: as ?? (await token()), body });
}

/** Every page of a cursor walk, `size` at a time, with what each page answered besides its rows. */
async function walk(tenant: number, sorts: Sort[], size: number, between?: (page: number) => Promise<void>) {
  const pages: { ids: number[]; body: Record<string, unknown> }[] = [];
  let after: string | undefined = '';
  while (after !== undefined) {
    const res = await list({ size, sorts, filter: { crProcessId: tenant }, after });
    if (res.status !== 200) throw new Error(`cursor page: ${res.status} ${res.text}`);
    pages.push({ ids: res.body.content.map((row: Partner) => row.id), body: res.body });
    after = res.body.nextAfter;
    await between?.(pages.length);
    if (pages.length > 1000) throw new Error('the walk does not end');
  }
  return pages;
}

/** The whole list in one offset page: the order a walk must give. */
async function offsetOrder(tenant: number, sorts: Sort[]): Promise<number[]> {
  const res = await list({ page: 0, size: 500, sorts, filter: { crProcessId: tenant } });
  if (res.status !== 200) throw new Error(`offset page: ${res.status} ${res.text}`);
  return res.body.content.map((row: Partner) => row.id);
}

/** A tenant of 61 partners: three types, tax numbers repeating and some absent. */
async function seeded(): Promise<number> {
  const tenant = freshTenant();
  const types = ['CUSTOMER', 'SUPPLIER', 'BOTH'];
  for (let batch = 0; batch < 61; batch += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, 61 - batch) }, (_, offset) => {
        const n = batch + offset;
        return createPartner(tenant, {
          partnerCode: `C-${String(n).padStart(3, '0')}`,
          partnerType: types[n % 3],
          ...(n % 4 === 0 ? {} : { taxNumber: `TX-${n % 5}` }),
        });
      }),
    );
  }
  return tenant;
}

const tenantOf = (() => {
  let shared: Promise<number> | undefined;
  return () => (shared ??= seeded());
})();

for (const [title, sorts] of [
  ['the default order (id)', []],
  ['a unique code descending', [{ field: 'partnerCode', direction: 'DESC' }]],
  ['a repeating enum, ties broken by id', [{ field: 'partnerType', direction: 'ASC' }]],
  ['a nullable text ascending (NULL last)', [{ field: 'taxNumber', direction: 'ASC' }]],
  ['a nullable text descending (NULL first)', [{ field: 'taxNumber', direction: 'DESC' }]],
  [
    'mixed directions over a nullable text',
    [
      { field: 'partnerType', direction: 'DESC' },
      { field: 'taxNumber', direction: 'ASC' },
      { field: 'partnerCode', direction: 'DESC' },
    ],
  ],
] as [string, Sort[]][]) {
  test(`a cursor walk by ${title} gives every row once, in the offset list's order`, async (t) => {
    const tenant = await tenantOf();
    const expected = await offsetOrder(tenant, sorts);
    t.is(expected.length, 61);
    const pages = await walk(tenant, sorts, 7);
    t.deepEqual(
      pages.flatMap((page) => page.ids),
      expected,
    );
    t.is(pages.length, 9);
    // "the previous page's nextAfter" until the last page, which names none
    t.true(pages.slice(0, -1).every((page) => typeof page.body.nextAfter === 'string' && page.body.last === false));
    t.false('nextAfter' in (pages.at(-1)?.body ?? {}));
    t.true(pages.at(-1)?.body.last);
    t.true(pages[0]?.body.first);
    t.false(pages[1]?.body.first);
  });
}

test('a cursor page is not counted: no page index, totalElements or totalPages', async (t) => {
  const tenant = await tenantOf();
  const res = await list({ size: 5, filter: { crProcessId: tenant }, after: '' });
  t.is(res.status, 200);
  t.is(res.body.content.length, 5);
  t.is(res.body.size, 5);
  for (const absent of ['page', 'totalElements', 'totalPages']) t.false(absent in res.body, absent);
  // an offset page keeps its arithmetic and names no next page
  const offset = await list({ page: 1, size: 5, filter: { crProcessId: tenant } });
  t.is(offset.body.totalElements, 61);
  t.is(offset.body.page, 1);
  t.false('nextAfter' in offset.body);
});

test('a walk sees every row that was there when it began exactly once while rows are inserted meanwhile', async (t) => {
  const tenant = freshTenant();
  const before: number[] = [];
  for (let n = 0; n < 40; n += 10) {
    const made = await Promise.all(Array.from({ length: 10 }, (_, k) => createPartner(tenant, { partnerCode: `W-${n + k}`, partnerType: 'SUPPLIER' })));
    before.push(...made.map((row: Partner) => row.id));
  }
  const inserted: number[] = [];
  const sorts: Sort[] = [{ field: 'partnerType', direction: 'ASC' }];
  const pages = await walk(tenant, sorts, 6, async () => {
    // a row sorted before the walk's place (CUSTOMER < SUPPLIER) and one after it, on every page
    const early = await createPartner(tenant, { partnerCode: unique('E-'), partnerType: 'CUSTOMER' });
    const late = await createPartner(tenant, { partnerCode: unique('L-'), partnerType: 'SUPPLIER' });
    inserted.push(early.id, late.id);
  });
  const seen = pages.flatMap((page) => page.ids);
  t.is(new Set(seen).size, seen.length, 'no row twice');
  for (const id of before) t.true(seen.includes(id), `row ${id} seen`);
  // everything seen is a row of this tenant: those of the start and those inserted
  t.true(seen.every((id) => before.includes(id) || inserted.includes(id)));
  // rows inserted behind the walk's place are never seen (it does not go back)
  const firstEarly = inserted[0];
  t.false(seen.includes(firstEarly as number));
});

test('a bad after is 400 SVC-SYS-2001: malformed, of another sort, with a page, of a wrong type, with a NUL or too long', async (t) => {
  const tenant = await tenantOf();
  const first = await list({ size: 5, sorts: [{ field: 'partnerCode', direction: 'ASC' }], filter: { crProcessId: tenant }, after: '' });
  const cursor: string = first.body.nextAfter;
  t.is(typeof cursor, 'string');
  const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  for (const [why, body] of [
    ['not base64url', { after: '***', sorts: [{ field: 'partnerCode', direction: 'ASC' }] }],
    ['not JSON', { after: Buffer.from('{nope').toString('base64url') }],
    ['another sort', { after: cursor, sorts: [{ field: 'partnerCode', direction: 'DESC' }] }],
    ['the default sort', { after: cursor }],
    ['a value the field refuses', { after: forged({ o: 'id:a', v: ['x'] }) }],
    ['a NULL where none can be', { after: forged({ o: 'id:a', v: [null] }) }],
    ['too many values', { after: forged({ o: 'id:a', v: [1, 2] }) }],
    ['a page index beside it', { after: cursor, page: 2, sorts: [{ field: 'partnerCode', direction: 'ASC' }] }],
    ['a number', { after: 5 }],
    ['a NUL', { after: 'ab\u0000cd' }],
    ['too long', { after: 'a'.repeat(5000) }],
  ] as [string, Record<string, unknown>][]) {
    const res = await list({ size: 5, filter: { crProcessId: tenant }, ...body });
    t.is(res.status, 400, why);
    assertInvalid(t, res, why === 'a page index beside it' ? 'page' : 'after');
  }
  // page 0 beside after is the first page's own index: allowed
  const zero = await list({ size: 5, page: 0, sorts: [{ field: 'partnerCode', direction: 'ASC' }], filter: { crProcessId: tenant }, after: cursor });
  t.is(zero.status, 200);
});

test('a cursor names a place, not rows: with another tenant it reads only that tenant, and only as the list would', async (t) => {
  const tenant = await tenantOf();
  const first = await list({ size: 5, filter: { crProcessId: tenant }, after: '' });
  const cursor: string = first.body.nextAfter;
  const other = freshTenant();
  const theirs = await createPartner(other, { partnerCode: 'O-1' });
  // the admin, who may read both: the other tenant's rows after that place, none of the first's
  const res = await list({ size: 50, filter: { crProcessId: other }, after: cursor });
  t.is(res.status, 200);
  t.deepEqual(
    res.body.content.map((row: Partner) => row.id),
    theirs.id > (first.body.content.at(-1) as Partner).id ? [theirs.id] : [],
  );
  // a clerk of the first tenant with that cursor and the other tenant's filter: 403, as for any list
  const clerk = await userWithRoles(await accountFor(tenant), ['business-partner:read']);
  const refused = await list({ size: 5, filter: { crProcessId: other }, after: cursor }, clerk.token);
  assertErrorBody(t, refused, 403, 'SVC-SYS-1003');
});

test("the operators' lists (sessions, exceptions) take no after: 400 naming it", async (t) => {
  const res = await api('POST', '/api/session/active/list', { apiKey: true, body: { size: 5, after: '' } });
  assertInvalid(t, res, 'after');
});

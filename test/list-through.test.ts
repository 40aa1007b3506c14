/**
 * A list filter through a reference (docs/adr/0141-a-list-filters-through-a-reference.md): the
 * accrual list's `filter.businessPartnerId` keeps the accruals whose contract is the partner's, in
 * the tenant the filter names. A partner of another tenant names none of them, as an equality
 * filter on another tenant's id finds nothing; a user of one tenant cannot name another
 * (403 SVC-SYS-1003, as every list).
 */
import test from 'ava';
import { accrual } from '@platform/contracts/bpm/accrual.ts';
import { bpmResources } from '@platform/contracts/bpm/index.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';
import { throughFilters } from '@platform/kit/resource/through-filters.ts';
import { adminSession, createAccount, createAccrual, createContract, createPartner, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';

async function list(filter: Record<string, unknown>, token?: string, page: { page?: number; size?: number } = {}) {
  return api('POST', '/api/accrual/list', { token: token ?? (await adminSession()).token, body: { ...page, filter } });
}

const ids = (body: { content: { id: number }[] }): number[] => body.content.map((each) => each.id).sort((a, b) => a - b);

/** Two tenants: in A a partner with two contracts and three accruals, and another partner with one; in B a partner with one. */
async function fixture() {
  const [a, b] = [await createAccount(), await createAccount()];
  const partner = await createPartner(a.crProcessId);
  const [first, second] = [
    await createContract(a.crProcessId, { businessPartnerId: partner.id }),
    await createContract(a.crProcessId, { businessPartnerId: partner.id }),
  ];
  const own = [
    await createAccrual(a.crProcessId, { contractId: first.id }),
    await createAccrual(a.crProcessId, { contractId: first.id, periodStart: '2026-02-01', periodEnd: '2026-02-28' }),
    await createAccrual(a.crProcessId, { contractId: second.id }),
  ];
  const neighbour = await createPartner(a.crProcessId);
  const neighbours = await createAccrual(a.crProcessId, { contractId: (await createContract(a.crProcessId, { businessPartnerId: neighbour.id })).id });
  const foreignPartner = await createPartner(b.crProcessId);
  const foreign = await createAccrual(b.crProcessId, { contractId: (await createContract(b.crProcessId, { businessPartnerId: foreignPartner.id })).id });
  return { a, b, partner, first, second, own, neighbour, neighbours, foreignPartner, foreign };
}

test("filter.businessPartnerId lists exactly the accruals of the partner's contracts, paged and counted, and narrows with the other filters", async (t) => {
  const { a, partner, second, own, neighbour, neighbours } = await fixture();
  const res = await list({ crProcessId: a.crProcessId, businessPartnerId: partner.id });
  t.is(res.status, 200, res.text);
  t.deepEqual(
    ids(res.body),
    own.map((each) => each.id).sort((x, y) => x - y),
  );
  t.is(res.body.totalElements, 3);

  const page = await list({ crProcessId: a.crProcessId, businessPartnerId: partner.id }, undefined, { page: 1, size: 2 });
  t.is(page.status, 200, page.text);
  t.is(page.body.content.length, 1, 'the third of three on the second page of two');
  t.is(page.body.totalElements, 3);

  const narrowed = await list({ crProcessId: a.crProcessId, businessPartnerId: partner.id, contractId: second.id });
  t.deepEqual(ids(narrowed.body), [own[2].id]);
  const byPeriod = await list({ crProcessId: a.crProcessId, businessPartnerId: partner.id, periodStartFrom: '2026-02-01' });
  t.deepEqual(ids(byPeriod.body), [own[1].id]);

  const other = await list({ crProcessId: a.crProcessId, businessPartnerId: neighbour.id });
  t.deepEqual(ids(other.body), [neighbours.id], "the other partner's own accrual, none of the first's");
});

test("another tenant's partner names no accrual: none of its own tenant's, none of the listed tenant's; a user of A cannot list B's", async (t) => {
  const { a, b, partner, foreignPartner } = await fixture();
  // the super user, naming tenant A and B's partner: B's accrual is not A's, and A has none of that partner
  const crossed = await list({ crProcessId: a.crProcessId, businessPartnerId: foreignPartner.id });
  t.is(crossed.status, 200, crossed.text);
  t.deepEqual(crossed.body.content, []);
  t.is(crossed.body.totalElements, 0);
  const reversed = await list({ crProcessId: b.crProcessId, businessPartnerId: partner.id });
  t.deepEqual(reversed.body.content, []);

  const user = await userWithRoles(a, ['accrual:read']);
  const mine = await list({ crProcessId: a.crProcessId, businessPartnerId: partner.id }, user.token);
  t.is(mine.status, 200, mine.text);
  t.is(mine.body.totalElements, 3);
  const theirs = await list({ crProcessId: a.crProcessId, businessPartnerId: foreignPartner.id }, user.token);
  t.deepEqual(theirs.body.content, [], "B's partner, named in A: nothing");
  const refused = await list({ crProcessId: b.crProcessId, businessPartnerId: foreignPartner.id }, user.token);
  assertErrorBody(t, refused, 403, 'SVC-SYS-1003');
});

test('a businessPartnerId that is no id is 400 SVC-SYS-2001 naming filter.businessPartnerId', async (t) => {
  const account = await createAccount();
  for (const value of ['BP-1', null, 1.5]) {
    const res = await list({ crProcessId: account.crProcessId, businessPartnerId: value });
    assertErrorBody(t, res, 400, 'SVC-SYS-2001');
    t.is(res.body.field, 'filter.businessPartnerId', JSON.stringify(value));
  }
});

test("the API document offers the accrual list's businessPartnerId filter, an id like the contract's partner, and no such filter where none is declared", async (t) => {
  const document = (await api('GET', '/api/docs/openapi.json')).body;
  const filter = document.components.schemas.AccrualPageRequest.properties.filter;
  t.like(filter.properties.businessPartnerId, { type: 'integer' });
  t.regex(filter.properties.businessPartnerId.description, /contractId names a contract of the same tenant whose businessPartnerId is this value/);
  t.deepEqual(Object.keys(accrual.list?.through ?? {}), ['businessPartnerId']);
  t.is(document.components.schemas.ContractItemPageRequest.properties.filter.properties.businessPartnerId, undefined);
});

test('a filter through a reference is refused at start unless one subquery over indexed columns of the same service answers it', (t) => {
  const declared = (through: Record<string, { via: string }>, fields: Record<string, unknown> = {}) =>
    ({ ...accrual, fields: { ...accrual.fields, ...fields }, list: { ...accrual.list, through } }) as unknown as Resource;
  t.deepEqual(
    throughFilters(accrual, bpmResources).map(({ name, via, target, spec }) => [name, via, target.path, spec.references]),
    [['businessPartnerId', 'contractId', 'contract', 'business-partner']],
  );
  t.throws(() => throughFilters(declared({ businessPartnerId: { via: 'periodStart' } }), bpmResources), { message: /not a same-tenant reference/ });
  t.throws(() => throughFilters(declared({ startDate: { via: 'contractId' } }), bpmResources), { message: /contract\.startDate has no index of its own/ });
  t.throws(() => throughFilters(declared({ partnerName: { via: 'contractId' } }), bpmResources), { message: /contract has no shown field partnerName/ });
  t.throws(() => throughFilters(declared({ businessPartnerId: { via: 'contractId' } }), [accrual]), { message: /contract is not declared beside it/ });
  t.throws(() => throughFilters(declared({ businessPartnerId: { via: 'contractId' } }, { businessPartnerId: { kind: 'long', doc: 'x' } }), bpmResources), {
    message: /is a field of accrual itself/,
  });
});

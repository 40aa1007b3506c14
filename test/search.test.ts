/**
 * The global search, GET /api/search?q= (docs/interface.md#search,
 * docs/adr/0116-global-search-fans-out.md): codes by prefix and names by containment over partners,
 * contacts, products, contracts and files, within the caller's tenant and only the kinds whose read
 * role the caller holds now. The contract: "every record read or written must belong to the current
 * account's crProcessId … The services enforce this themselves, not only the gateway"
 * (docs/interface.md#identity); `<entity>:read` covers "get, list, stats, by-partner, by-entity,
 * search".
 */
import test from 'ava';
import {
  adminSession,
  create,
  createAccount,
  createContract,
  createGroupWithRoles,
  createPartner,
  createProduct,
  unique,
  userWithRoles,
} from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { uploadRecord } from './helpers/files.ts';
import { api, type ApiResponse } from './helpers/platform.ts';
import { rawRequest } from './helpers/raw-http.ts';

const READ_ALL = ['business-partner:read', 'contact:read', 'product:read', 'contract:read', 'dms-file:read'];

interface Hit {
  id: number;
  code: string | null;
  name: string;
}
interface Group {
  entity: string;
  hits: Hit[];
  more: boolean;
}

const search = (q: string, token: string, extra = '') => api('GET', `/api/search?q=${encodeURIComponent(q)}${extra}`, { token });

function groupOf(res: ApiResponse, entity: string): Group | undefined {
  return (res.body.groups as Group[]).find((group) => group.entity === entity);
}

function idsOf(res: ApiResponse, entity: string): number[] {
  return groupOf(res, entity)?.hits.map((hit) => hit.id) ?? [];
}

test('a partner is found by its code prefix and by a part of its name, as id, code and name, in a whole answer', async (t) => {
  const account = await createAccount();
  const word = unique('Qorva');
  const partner = await createPartner(account.crProcessId, { partnerCode: unique('SRCH-'), partnerName: `Anadolu ${word} Lojistik` });
  const user = await userWithRoles(account, READ_ALL);

  const byCode = await search(partner.partnerCode.slice(0, 9).toLowerCase(), user.token);
  t.is(byCode.status, 200, byCode.text);
  t.deepEqual(Object.keys(byCode.body).sort(), ['groups', 'partial', 'unanswered']);
  t.false(byCode.body.partial);
  t.deepEqual(byCode.body.unanswered, []);
  t.deepEqual(
    (byCode.body.groups as Group[]).map((group) => group.entity),
    ['business-partner', 'contact', 'product', 'contract', 'dms-file'],
    'every kind the user may read, in a fixed order',
  );
  t.deepEqual(groupOf(byCode, 'business-partner')?.hits, [{ id: partner.id, code: partner.partnerCode, name: partner.partnerName }]);

  const byName = await search(word.toUpperCase(), user.token);
  t.deepEqual(idsOf(byName, 'business-partner'), [partner.id], 'containment, case-insensitive');
  // the dotted and dotless I are one letter, as in the lists' searchTerm (docs/adr/0100-searchterm-folds-the-dotted.md)
  const isik = await createPartner(account.crProcessId, { partnerName: `Işık ${word}` });
  t.deepEqual(idsOf(await search(`IŞIK ${word}`, user.token), 'business-partner'), [isik.id]);
});

test('contacts, products, contracts and files are found by their names and codes', async (t) => {
  const account = await createAccount();
  const tenant = account.crProcessId;
  const word = unique('Velk');
  const partner = await createPartner(tenant);
  const contact = await create('contact', { crProcessId: tenant, businessPartnerId: partner.id, firstName: 'Ada', lastName: `${word}son` });
  const product = await createProduct(tenant, { productCode: `${word}-P1`, productName: 'Vida M8' });
  const contract = await createContract(tenant, { contractNo: `${word}-C1`, businessPartnerId: partner.id, description: 'Yearly service' });
  const admin = await adminSession();
  const file = await uploadRecord(admin.token, tenant, 'search me', `${word}-offer.pdf`);
  const user = await userWithRoles(account, READ_ALL);

  const res = await search(word, user.token);
  t.is(res.status, 200, res.text);
  t.deepEqual(groupOf(res, 'contact')?.hits, [{ id: contact.id, code: null, name: `Ada ${word}son` }]);
  t.deepEqual(groupOf(res, 'product')?.hits, [{ id: product.id, code: product.productCode, name: 'Vida M8' }]);
  t.deepEqual(groupOf(res, 'contract')?.hits, [{ id: contract.id, code: contract.contractNo, name: 'Yearly service' }]);
  t.deepEqual(groupOf(res, 'dms-file')?.hits, [{ id: file.id, code: null, name: `${word}-offer.pdf` }]);
  t.deepEqual(idsOf(res, 'business-partner'), []);

  // a deleted file is gone from search as from lists (docs/interface.md#files)
  t.is((await api('DELETE', `/api/dms-file/${file.id}`, { token: admin.token })).status, 204);
  t.deepEqual(idsOf(await search(word, user.token), 'dms-file'), []);
});

test('at most five hits per kind, codes by prefix first, and `more` says that others match', async (t) => {
  const account = await createAccount();
  const word = unique('Mant');
  for (let i = 0; i < 6; i++) await createPartner(account.crProcessId, { partnerName: `${word} ${i}` });
  const coded = await createPartner(account.crProcessId, { partnerCode: `${word}-CODE`, partnerName: 'Other name' });
  const user = await userWithRoles(account, ['business-partner:read']);
  const group = groupOf(await search(word, user.token), 'business-partner');
  t.is(group?.hits.length, 5);
  t.true(group?.more);
  t.is(group?.hits[0]?.id, coded.id, 'the code that starts with the term comes first');
  // under three characters a name is matched by its start, a code likewise
  const short = await search(word.slice(0, 2), user.token);
  t.is(short.status, 200, short.text);
  t.true(idsOf(short, 'business-partner').length > 0);
});

test("another tenant's partner is never found, and naming another tenant is 403 SVC-SYS-1003", async (t) => {
  const [mine, theirs] = [await createAccount(), await createAccount()];
  const word = unique('Terr');
  const own = await createPartner(mine.crProcessId, { partnerName: `${word} own` });
  await createPartner(theirs.crProcessId, { partnerName: `${word} theirs`, partnerCode: `${word}-X` });
  const user = await userWithRoles(mine, READ_ALL);
  const res = await search(word, user.token);
  t.deepEqual(idsOf(res, 'business-partner'), [own.id]);
  t.deepEqual(idsOf(await search(word, user.token, `&crProcessId=${mine.crProcessId}`), 'business-partner'), [own.id], 'its own tenant named');
  assertErrorBody(t, await search(word, user.token, `&crProcessId=${theirs.crProcessId}`), 403, 'SVC-SYS-1003');
  // a super user searches its current tenant unless it names another
  const admin = await adminSession();
  t.deepEqual(idsOf(await search(word, admin.token), 'business-partner'), []);
  t.is(groupOf(await search(word, admin.token, `&crProcessId=${theirs.crProcessId}`), 'business-partner')?.hits[0]?.name, `${word} theirs`);
});

test('a user without business-partner:read gets no partners but gets the products it may read', async (t) => {
  const account = await createAccount();
  const word = unique('Rolo');
  await createPartner(account.crProcessId, { partnerName: `${word} partner` });
  const product = await createProduct(account.crProcessId, { productName: `${word} product` });
  const user = await userWithRoles(account, ['product:read']);
  const res = await search(word, user.token);
  t.is(res.status, 200, res.text);
  t.deepEqual(
    (res.body.groups as Group[]).map((group) => group.entity),
    ['product'],
  );
  t.deepEqual(idsOf(res, 'product'), [product.id]);
});

test('a role revoked counts from the next search', async (t) => {
  const account = await createAccount();
  const word = unique('Revo');
  const partner = await createPartner(account.crProcessId, { partnerName: `${word} partner` });
  const product = await createProduct(account.crProcessId, { productName: `${word} product` });
  const user = await userWithRoles(account, ['business-partner:read']);
  const admin = (await adminSession()).token;
  t.deepEqual(idsOf(await search(word, user.token), 'business-partner'), [partner.id], 'the control');
  // product:read granted by a second group, business-partner:read taken away with the first group's role
  await createGroupWithRoles(account.crProcessId, ['product:read'], [user.userCode]);
  const roles = await api('POST', '/api/group-role/list', {
    token: admin,
    body: { page: 0, size: 5, filter: { crProcessId: account.crProcessId, groupId: user.group.id } },
  });
  t.is(roles.body.content.length, 1);
  t.is((await api('DELETE', `/api/group-role/${roles.body.content[0].id}`, { token: admin })).status, 204);
  const after = await search(word, user.token);
  t.is(after.status, 200, after.text);
  t.deepEqual(
    (after.body.groups as Group[]).map((group) => group.entity),
    ['product'],
  );
  t.deepEqual(idsOf(after, 'product'), [product.id]);
});

test('a malformed search is 400 SVC-SYS-2001 naming what is wrong; without a session 401', async (t) => {
  const account = await createAccount();
  const user = await userWithRoles(account, READ_ALL);
  const token = user.token;
  assertInvalid(t, await api('GET', '/api/search', { token }), 'q');
  assertInvalid(t, await api('GET', '/api/search?q=', { token }), 'q');
  assertInvalid(t, await api('GET', '/api/search?q=%20%20', { token }), 'q');
  assertInvalid(t, await search('x'.repeat(101), token), 'q');
  t.is((await search('x'.repeat(100), token)).status, 200, 'a hundred characters are taken');
  assertInvalid(t, await rawRequest('GET', '/api/search?q=a%00b', { token }), 'q');
  assertInvalid(t, await rawRequest('GET', '/api/search?q=%E0%A4%A', { token }), 'q');
  assertInvalid(t, await rawRequest('GET', '/api/search?q=%FF', { token }), 'q');
  assertInvalid(t, await api('GET', '/api/search?q=a&q=b', { token }), 'q');
  assertInvalid(t, await api('GET', '/api/search?q[]=a', { token }), 'q');
  assertInvalid(t, await api('GET', '/api/search?q=a&size=5', { token }), 'size');
  assertInvalid(t, await api('GET', '/api/search?q=a&crProcessId=abc', { token }), 'crProcessId');
  // LIKE's and regular expressions' own characters stand for themselves
  for (const q of ['%', '_', '\\', '.*', '(', '[', "'"]) t.is((await search(q, token)).status, 200, q);
  assertErrorBody(t, await api('GET', '/api/search?q=a'), 401, 'SVC-SYS-1001');
});

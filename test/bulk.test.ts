/**
 * Bulk changes (docs/interface.md#bulk-changes): "`POST /api/{entity}/bulk` takes up to 100
 * creates, updates and deletes ... each item is run by the RPC its single route calls, with the
 * caller's identity, in order, one after another, and checked exactly as alone ... The answer is
 * 200 with a result per item", over HTTP against the real platform.
 */
import test from 'ava';
import { MAX_BULK_ITEMS } from '@platform/contracts/bulk.ts';
import { accountFor, adminSession, createBranch, createPartner, freshTenant, unique, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { sql } from './helpers/db.ts';
import { exceptionEntry } from './helpers/exception-entry.ts';
import { api, platform } from './helpers/platform.ts';
import { startGateway, uniquePrefix, untilRedisUp } from './helpers/redis.ts';
import { freePort } from '../scripts/lib/os-probes.ts';

const partnerBody = (crProcessId: number, overrides: Record<string, unknown> = {}) => ({
  crProcessId,
  partnerCode: unique('P-'),
  partnerName: unique('Partner '),
  partnerType: 'CUSTOMER',
  ...overrides,
});

async function bulk(path: string, token: string, items: unknown[], headers: Record<string, string> = {}) {
  return api('POST', `/api/${path}/bulk`, { token, body: { items }, headers });
}

async function partnersOf(crProcessId: number, token: string): Promise<any[]> {
  const res = await api('POST', '/api/business-partner/list', { token, body: { size: 500, filter: { crProcessId }, sorts: [{ field: 'id' }] } });
  if (res.status !== 200) throw new Error(res.text);
  return res.body.content;
}

test('one bad item among good ones: a result per item, the good ones written, the bad ones not, each as its single route says', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const [taken, stale, referenced, doomed, kept, mismatched] = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createPartner(tenant)));
  await createBranch(tenant, referenced.id);
  const fresh = partnerBody(tenant);
  const items = [
    { action: 'create', record: fresh },
    { action: 'create', record: partnerBody(tenant, { partnerCode: taken.partnerCode }) },
    { action: 'update', key: kept.id, record: { version: 0, partnerName: 'Kept and renamed' } },
    { action: 'update', key: stale.id, record: { version: 5, partnerName: 'Never' } },
    { action: 'delete', key: referenced.id },
    { action: 'delete', key: doomed.id, version: 0 },
    { action: 'create', record: partnerBody(tenant, { colour: 'blue' }) },
    { action: 'create', record: partnerBody(tenant), extra: 1 },
    { action: 'delete', key: mismatched.id, version: 3 },
    { action: 'patch', key: kept.id },
    { action: 'update', key: stale.id, record: { partnerName: 'No version' } },
    // runs after item 0: sees its write
    { action: 'create', record: partnerBody(tenant, { partnerCode: fresh.partnerCode }) },
    'not an object',
    { action: 'delete', key: '7' },
  ];
  const res = await bulk('business-partner', token, items);
  t.is(res.status, 200, res.text);
  t.is(res.body.results.length, items.length);
  t.deepEqual(
    res.body.results.map((result: any) => [result.index, result.status, result.error?.error_code]),
    [
      [0, 200, undefined],
      [1, 409, 'SVC-SYS-4005'],
      [2, 200, undefined],
      [3, 409, 'SVC-SYS-4002'],
      [4, 409, 'SVC-SYS-4003'],
      [5, 204, undefined],
      [6, 400, 'SVC-SYS-2001'],
      [7, 400, 'SVC-SYS-2001'],
      [8, 412, 'SVC-SYS-4002'],
      [9, 400, 'SVC-SYS-2001'],
      [10, 400, 'SVC-SYS-2001'],
      [11, 409, 'SVC-SYS-4005'],
      [12, 400, 'SVC-SYS-2001'],
      [13, 400, 'SVC-SYS-2001'],
    ],
  );
  t.like(res.body, { succeeded: 3, failed: 11, notRun: 0 });
  const [created, duplicate, updated, , , deleted, unknown, extraKey] = res.body.results;
  t.like(created.record, { ...fresh, version: 0, createdBy: 'admin' });
  t.like(updated.record, { id: kept.id, version: 1, partnerName: 'Kept and renamed' });
  t.is(deleted.record, undefined);
  t.is(duplicate.error.field, 'partnerCode');
  t.is(unknown.error.field, 'colour');
  t.is(extraKey.error.field, 'extra');
  t.is(res.body.results[9].error.field, 'action');
  t.is(res.body.results[13].error.field, 'key');
  for (const result of res.body.results.filter((r: any) => r.error)) t.is(result.error.status, 'ERROR');

  // each error body is the one its single route answers
  const single = await api('POST', '/api/business-partner', { token, body: partnerBody(tenant, { partnerCode: taken.partnerCode }) });
  assertErrorBody(t, single, 409, 'SVC-SYS-4005');
  t.deepEqual(duplicate.error, single.body);
  const singleStale = await api('PUT', `/api/business-partner/${stale.id}`, { token, body: { version: 5, partnerName: 'Never' } });
  t.deepEqual(res.body.results[3].error, singleStale.body);

  // read back: what passed is written, what failed is not
  const stored = await partnersOf(tenant, token);
  const byId = new Map(stored.map((partner) => [partner.id, partner]));
  t.like(byId.get(created.record.id), { partnerCode: fresh.partnerCode, version: 0 });
  t.like(byId.get(kept.id), { partnerName: 'Kept and renamed', version: 1 });
  t.like(byId.get(stale.id), { partnerName: stale.partnerName, version: 0 });
  t.like(byId.get(mismatched.id), { version: 0 });
  t.truthy(byId.get(referenced.id));
  t.false(byId.has(doomed.id));
  t.is((await api('GET', `/api/business-partner/${doomed.id}`, { token })).status, 404);
  t.is(stored.length, 6, 'five of the six left and one created');
});

test('the item errors are in the caller language; the results keep the order sent', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const res = await bulk('business-partner', token, [{ action: 'create', record: partnerBody(tenant, { colour: 1 }) }], { 'accept-language': 'tr' });
  t.is(res.status, 200, res.text);
  t.is(res.body.results[0].error.message, 'Bilinmeyen alan: colour');
});

test('items of another tenant are refused per item while the caller own pass', async (t) => {
  const { token: admin } = await adminSession();
  const own = await accountFor(freshTenant());
  const other = freshTenant();
  const user = await userWithRoles(own, ['business-partner:read', 'business-partner:write', 'business-partner:delete']);
  const [othersPartner, ownPartner] = await Promise.all([createPartner(other), createPartner(own.crProcessId)]);
  const res = await bulk('business-partner', user.token, [
    { action: 'create', record: partnerBody(own.crProcessId) },
    { action: 'create', record: partnerBody(other) },
    { action: 'update', key: othersPartner.id, record: { version: 0, partnerName: 'Taken over' } },
    { action: 'delete', key: othersPartner.id },
    { action: 'update', key: ownPartner.id, record: { version: 0, partnerName: 'Mine' } },
  ]);
  t.is(res.status, 200, res.text);
  t.deepEqual(
    res.body.results.map((result: any) => [result.status, result.error?.error_code]),
    // another tenant's record is not found, as on the single route (docs/interface.md#conditional-requests)
    [
      [200, undefined],
      [403, 'SVC-SYS-1003'],
      [404, 'SVC-SYS-4001'],
      [404, 'SVC-SYS-4001'],
      [200, undefined],
    ],
  );
  t.is((await partnersOf(other, admin)).length, 1);
  const got = await api('GET', `/api/business-partner/${othersPartner.id}`, { token: admin });
  t.like(got.body, { version: 0, partnerName: othersPartner.partnerName });
  t.is((await partnersOf(own.crProcessId, admin)).length, 2);
});

test('a user without <path>:delete gets 403 per delete while its creates pass; a privilege taken away counts at once', async (t) => {
  const { token: admin } = await adminSession();
  const account = await accountFor(freshTenant());
  const tenant = account.crProcessId;
  const user = await userWithRoles(account, ['business-partner:read', 'business-partner:write']);
  const target = await createPartner(tenant);
  const first = await bulk('business-partner', user.token, [
    { action: 'create', record: partnerBody(tenant) },
    { action: 'delete', key: target.id },
    { action: 'create', record: partnerBody(tenant) },
  ]);
  t.is(first.status, 200, first.text);
  t.deepEqual(
    first.body.results.map((result: any) => [result.status, result.error?.error_code]),
    [
      [200, undefined],
      [403, 'SVC-SYS-1003'],
      [200, undefined],
    ],
  );
  t.is((await api('GET', `/api/business-partner/${target.id}`, { token: admin })).status, 200);

  // the group's write grant taken away: the next bulk's creates are refused
  const grants = await api('POST', '/api/group-role/list', { token: admin, body: { size: 50, filter: { crProcessId: tenant, groupId: user.group.id } } });
  t.is(grants.status, 200, grants.text);
  const roleTypes = await api('POST', '/api/role-type/list', {
    token: admin,
    body: { size: 50, filter: { crProcessId: tenant, roleCode: 'business-partner:write' } },
  });
  const writeGrant = grants.body.content.find((grant: any) => grant.roleTypeId === roleTypes.body.content[0]?.id);
  t.truthy(writeGrant);
  t.is((await api('DELETE', `/api/group-role/${writeGrant.id}`, { token: admin })).status, 204);
  const second = await bulk('business-partner', user.token, [{ action: 'create', record: partnerBody(tenant) }]);
  t.is(second.status, 200, second.text);
  t.like(second.body, { succeeded: 0, failed: 1, notRun: 0 });
  t.is(second.body.results[0].status, 403);
  t.is((await partnersOf(tenant, admin)).length, 3);
});

test('a malformed envelope is 400 with the error body for the whole request, and nothing is written', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const create = () => ({ action: 'create', record: partnerBody(tenant) });
  const tooMany = Array.from({ length: MAX_BULK_ITEMS + 1 }, create);
  const cases: [string, Parameters<typeof api>[2], string][] = [
    [`${MAX_BULK_ITEMS + 1} items`, { token, body: { items: tooMany } }, 'items'],
    ['no items', { token, body: { items: [] } }, 'items'],
    ['items not an array', { token, body: { items: create() } }, 'items'],
    ['items missing', { token, body: {} }, 'items'],
    ['a key beside items', { token, body: { items: [create()], atomic: true } }, 'atomic'],
    ['a body that is an array', { token, body: [create()] }, 'object'],
    ['malformed JSON', { token, raw: `{"items": [${JSON.stringify(create())},` }, 'JSON'],
    [
      'a NUL in a string',
      { token, body: { items: [create(), { action: 'create', record: partnerBody(tenant, { partnerName: 'a\u0000b' }) }] } },
      'partnerName',
    ],
  ];
  for (const [name, options, names] of cases) {
    const res = await api('POST', '/api/business-partner/bulk', options);
    assertInvalid(t, res, names);
    t.is(res.body.results, undefined, name);
  }
  t.deepEqual(await partnersOf(tenant, token), [], 'nothing written');
  // exactly the bound passes
  const atBound = await api('POST', '/api/business-partner/bulk', { token, body: { items: tooMany.slice(0, MAX_BULK_ITEMS) } });
  t.is(atBound.status, 200, atBound.text);
  t.like(atBound.body, { succeeded: MAX_BULK_ITEMS, failed: 0, notRun: 0 });
});

test('without a token or after a logout the bulk is 401; a resource that offers no write has no bulk route', async (t) => {
  const { token } = await adminSession();
  const anonymous = await api('POST', '/api/business-partner/bulk', {
    apiKey: true,
    body: { items: [{ action: 'create', record: partnerBody(freshTenant()) }] },
  });
  assertErrorBody(t, anonymous, 401, 'SVC-SYS-1001');
  // a session ended: 401 for the whole request, even when no item would reach a service
  const ended = await userWithRoles(await accountFor(freshTenant()), ['business-partner:write']);
  t.is((await api('POST', '/api/auth/logout', { token: ended.token })).status, 204);
  const afterLogout = await api('POST', '/api/business-partner/bulk', { token: ended.token, body: { items: [{ action: 'patch' }] } });
  assertErrorBody(t, afterLogout, 401, 'SVC-SYS-1001');
  t.is(afterLogout.body.results, undefined);
  // license-history: get and list only (docs/interface.md#entities)
  const none = await api('POST', '/api/license-history/bulk', { token, body: { items: [{ action: 'delete', key: 1 }] } });
  assertErrorBody(t, none, 404, 'SVC-SYS-4001');
  // dms-file offers update and delete but no create: that item is 404 as POST /api/dms-file would be
  const noCreate = await api('POST', '/api/dms-file/bulk', { token, body: { items: [{ action: 'create', record: { crProcessId: 1 } }] } });
  t.is(noCreate.status, 200, noCreate.text);
  t.is(noCreate.body.results[0].status, 404);
  t.is(noCreate.body.results[0].error.error_code, 'SVC-SYS-4001');
});

test('a bulk counts as its number of items in the rate limit', async (t) => {
  const { token } = await adminSession();
  const items = Array.from({ length: MAX_BULK_ITEMS }, () => ({ action: 'patch' }));
  const res = await api('POST', '/api/business-partner/bulk', { token, body: { items } });
  t.is(res.status, 200, res.text);
  const limit = Number(res.headers.get('ratelimit-limit'));
  const remaining = Number(res.headers.get('ratelimit-remaining'));
  // the tier's bucket refills at limit per minute: in the few ms of one request, far fewer than 50
  t.true(limit - remaining >= MAX_BULK_ITEMS - 50, `${limit} - ${remaining}`);
  const single = await api('POST', '/api/business-partner/list', { token, body: { filter: { crProcessId: 1 }, size: 1 } });
  t.true(limit - Number(single.headers.get('ratelimit-remaining')) < MAX_BULK_ITEMS - 50);
});

test('each written item has its events and history as a single write has', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  const [north, south] = await Promise.all([createBranch(tenant, partner.id, { branchName: 'North' }), createBranch(tenant, partner.id)]);
  const res = await bulk('branch', token, [
    { action: 'create', record: { crProcessId: tenant, businessPartnerId: partner.id, branchName: 'West', branchCode: unique('B-') } },
    { action: 'update', key: north.id, record: { version: 0, branchName: 'East' } },
    { action: 'delete', key: south.id },
    { action: 'update', key: north.id, record: { version: 0, branchName: 'Stale' } },
  ]);
  t.is(res.status, 200, res.text);
  t.like(res.body, { succeeded: 3, failed: 1 });
  const created = res.body.results[0].record;
  const historyOf = async (id: number) => {
    const history = await api('GET', `/api/branch/${id}/history`, { token });
    t.is(history.status, 200, history.text);
    return history.body.content.map((event: any) => [event.type, event.version, event.userCode]);
  };
  t.deepEqual(await historyOf(created.id), [['branch.created', 0, 'admin']]);
  t.deepEqual(await historyOf(north.id), [
    ['branch.updated', 1, 'admin'],
    ['branch.created', 0, 'admin'],
  ]);
  t.deepEqual(
    (await historyOf(south.id)).map(([type]: [string]) => type),
    ['branch.deleted', 'branch.created'],
  );
  const events = await sql<{ type: string; entity_key: string }>(
    `select type, entity_key from bpm.bpm_outbox where entity = 'branch' and entity_key = any($1) order by seq`,
    [[created.id, north.id, south.id].map(String)],
  );
  t.deepEqual(
    events.map((event) => `${event.entity_key}:${event.type}`).sort(),
    [
      `${north.id}:branch.created`,
      `${south.id}:branch.created`,
      `${created.id}:branch.created`,
      `${north.id}:branch.updated`,
      `${south.id}:branch.deleted`,
    ].sort(),
  );
});

test('batching never passes the limit: a bulk past the bucket is 429 with the rate-limit body, and none of its items runs', async (t) => {
  // a gateway of its own with a JWT limit of 10 a minute (one back every 6 s), a client address per test (TRUST_PROXY=1)
  const gateway = await startGateway(platform.env, { REDIS_KEY_PREFIX: uniquePrefix('bulk-rl'), TRUST_PROXY: '1', RATE_LIMIT_JWT: '10' });
  t.teardown(() => gateway.stop());
  await untilRedisUp(gateway);
  const { token } = await adminSession();
  const tenant = freshTenant();
  const send = (count: number) =>
    api('POST', '/api/business-partner/bulk', {
      baseUrl: gateway.url,
      token,
      headers: { 'x-forwarded-for': '198.51.100.77' },
      body: { items: Array.from({ length: count }, () => ({ action: 'create', record: partnerBody(tenant) })) },
    });
  const first = await send(6);
  t.is(first.status, 200, first.text);
  t.is(first.body.succeeded, 6);
  t.is(first.headers.get('ratelimit-remaining'), '4');
  const second = await send(6);
  t.is(second.status, 429, second.text);
  t.like(second.body, { status: 429, error: 'Too Many Requests', retryAfter: 60 });
  t.regex(second.headers.get('retry-after') ?? '', /^\d+$/);
  // larger than the whole bucket: never passes
  const huge = await api('POST', '/api/business-partner/bulk', {
    baseUrl: gateway.url,
    token,
    headers: { 'x-forwarded-for': '198.51.100.78' },
    body: { items: Array.from({ length: 11 }, () => ({ action: 'create', record: partnerBody(tenant) })) },
  });
  t.is(huge.status, 429, huge.text);
  t.is((await partnersOf(tenant, token)).length, 6);
});

test('a 5xx of an item stops the run: that item carries the error body with its refId, the rest are not run', async (t) => {
  // a gateway whose partner-management service is away: its calls are 503 SVC-SYS-5002 (docs/interface.md#errors)
  const gateway = await startGateway(platform.env, { BPM_GRPC_ADDR: `127.0.0.1:${await freePort()}`, GRPC_DEADLINE_MS: '2000' });
  t.teardown(() => gateway.stop());
  const { token } = await adminSession();
  const tenant = freshTenant();
  const res = await api('POST', '/api/business-partner/bulk', {
    baseUrl: gateway.url,
    token,
    body: {
      items: [
        { action: 'create', record: { unknown: 1 } },
        { action: 'create', record: partnerBody(tenant) },
        { action: 'delete', key: 1 },
      ],
    },
  });
  t.is(res.status, 200, res.text);
  t.like(res.body, { succeeded: 0, failed: 2, notRun: 1 });
  const [refused, unavailable, notRun] = res.body.results;
  t.like(refused, { index: 0, status: 400 });
  t.like(unavailable, { index: 1, status: 503, error: { status: 'ERROR', error_code: 'SVC-SYS-5002' } });
  t.regex(unavailable.error.refId, /^[0-9a-f-]{36}$/);
  t.deepEqual(notRun, { index: 2, notRun: true });
  const entry = await exceptionEntry(unavailable.error.refId);
  t.like(entry.body, { service: 'gateway', errorCode: 'SVC-SYS-5002', path: '/api/business-partner/bulk', method: 'POST', userCode: 'admin' });
});

test('a body past the JSON limit is 413 for the whole request; a resource keyed by text takes its key as a string', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  // "at most 1 MiB (MAX_JSON_BYTES; 413 SVC-SYS-3001)" (docs/interface.md#records)
  const padding = 'x'.repeat(12_000);
  const huge = await api('POST', '/api/business-partner/bulk', {
    token,
    body: { items: Array.from({ length: MAX_BULK_ITEMS }, () => ({ action: 'create', record: partnerBody(tenant, { address: padding }) })) },
  });
  assertErrorBody(t, huge, 413, 'SVC-SYS-3001');
  t.deepEqual(await partnersOf(tenant, token), []);

  // account is keyed by accountNo (docs/interface.md#crud)
  const account = await accountFor(freshTenant());
  const res = await bulk('account', token, [
    { action: 'update', key: account.accountNo, record: { version: account.version, accountName: 'Renamed in bulk' } },
    { action: 'update', key: account.id, record: { version: account.version + 1, accountName: 'By id' } },
    { action: 'update', key: unique('NO-SUCH-'), record: { version: 0 } },
  ]);
  t.is(res.status, 200, res.text);
  t.deepEqual(
    res.body.results.map((result: any) => [result.status, result.error?.field ?? result.error?.error_code]),
    [
      [200, undefined],
      [400, 'key'],
      [404, 'SVC-SYS-4001'],
    ],
  );
  t.is((await api('GET', `/api/account/${encodeURIComponent(account.accountNo)}`, { token })).body.accountName, 'Renamed in bulk');
});

/**
 * The history of a record (docs/interface.md#history): "GET /api/{entity}/{key}/history?page=&size=
 * answers the interface's PageResponse of the record's events, newest first, each {id, type,
 * occurredAt, userCode, version, changes} with changes an object of field → {from, to}; for everyone
 * who may read the record, in its tenant only".
 */
import test from 'ava';
import { accountFor, adminSession, createBranch, createPartner, freshTenant, userWithRoles } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

test('a branch created, updated twice and deleted has four events, newest first, with from/to', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  const branch = await createBranch(tenant, partner.id, { branchName: 'North' });
  const first = await api('PUT', `/api/branch/${branch.id}`, { token, body: { ...branch, branchName: 'South' } });
  t.is(first.status, 200, first.text);
  const second = await api('PUT', `/api/branch/${branch.id}`, { token, body: { ...first.body, branchName: 'East' } });
  t.is(second.status, 200, second.text);
  t.is((await api('DELETE', `/api/branch/${branch.id}`, { token })).status, 204);

  const res = await api('GET', `/api/branch/${branch.id}/history`, { token });
  t.is(res.status, 200, res.text);
  t.deepEqual(
    res.body.content.map((event: any) => [event.type, event.version, event.userCode]),
    [
      ['branch.deleted', 2],
      ['branch.updated', 2],
      ['branch.updated', 1],
      ['branch.created', 0],
    ].map(([type, version]) => [type, version, 'admin']),
  );
  const [deleted, updated2, updated1, created] = res.body.content;
  t.deepEqual(updated2.changes, { branchName: { from: 'South', to: 'East' } });
  t.deepEqual(updated1.changes, { branchName: { from: 'North', to: 'South' } });
  t.deepEqual(created.changes.branchName, { from: null, to: 'North' });
  t.deepEqual(deleted.changes.branchName, { from: 'East', to: null });
  for (const event of res.body.content) {
    t.regex(event.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    t.false(Number.isNaN(Date.parse(event.occurredAt)));
  }
  t.like(res.body, { page: 0, size: 20, totalElements: 4, totalPages: 1, first: true, last: true, empty: false });
});

test('history pages: size and page split the events, a page past the end is empty with the true total', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  let branch = await createBranch(tenant, partner.id, { branchName: 'v0' });
  for (let i = 1; i <= 4; i++) {
    const res = await api('PUT', `/api/branch/${branch.id}`, { token, body: { ...branch, branchName: `v${i}` } });
    t.is(res.status, 200, res.text);
    branch = res.body;
  }
  const page1 = await api('GET', `/api/branch/${branch.id}/history?page=1&size=2`, { token });
  t.is(page1.status, 200, page1.text);
  t.deepEqual(
    page1.body.content.map((event: any) => event.version),
    [2, 1],
  );
  t.like(page1.body, { page: 1, size: 2, totalElements: 5, totalPages: 3, first: false, last: false, empty: false });
  const past = await api('GET', `/api/branch/${branch.id}/history?page=9&size=2`, { token });
  t.like(past.body, { content: [], totalElements: 5, empty: true, last: true });
  for (const query of ['size=0', 'size=501', 'page=-1', 'size=abc', 'other=1']) {
    const bad = await api('GET', `/api/branch/${branch.id}/history?${query}`, { token });
    t.is(bad.status, 400, `${query}: ${bad.text}`);
    t.is(bad.body.error_code, 'SVC-SYS-2001', query);
  }
  const badKey = await api('GET', '/api/branch/abc/history', { token });
  t.is(badKey.status, 400, badKey.text);
});

test('a key without events, or a record of another tenant, is 404; without branch:read 403; a role taken away counts from the next request', async (t) => {
  const { token } = await adminSession();
  const [tenantA, tenantB] = [freshTenant(), freshTenant()];
  const branchA = await createBranch(tenantA, (await createPartner(tenantA)).id);
  const branchB = await createBranch(tenantB, (await createPartner(tenantB)).id);
  const none = await api('GET', '/api/branch/999999999999/history', { token });
  t.is(none.status, 404, none.text);
  t.is(none.body.error_code, 'SVC-SYS-4001');

  const reader = await userWithRoles(await accountFor(tenantB), ['branch:read']);
  const own = await api('GET', `/api/branch/${branchB.id}/history`, { token: reader.token });
  t.is(own.status, 200, own.text);
  t.is(own.body.totalElements, 1);
  const other = await api('GET', `/api/branch/${branchA.id}/history`, { token: reader.token });
  t.is(other.status, 404, other.text);
  t.is(other.body.error_code, 'SVC-SYS-4001');

  const stranger = await userWithRoles(await accountFor(tenantB), ['contact:read']);
  const refused = await api('GET', `/api/branch/${branchB.id}/history`, { token: stranger.token });
  t.is(refused.status, 403, refused.text);
  t.is(refused.body.error_code, 'SVC-SYS-1003');

  const members = await api('POST', '/api/group-member/list', {
    token,
    body: { page: 0, size: 10, filter: { crProcessId: tenantB, groupId: reader.group.id } },
  });
  t.is(members.status, 200, members.text);
  for (const member of members.body.content) t.is((await api('DELETE', `/api/group-member/${member.id}`, { token })).status, 204);
  const after = await api('GET', `/api/branch/${branchB.id}/history`, { token: reader.token });
  t.is(after.status, 403, after.text);
});

test('history is served for a record of every service, keyed as its path names it', async (t) => {
  const { token } = await adminSession();
  const account = await accountFor(freshTenant());
  const byNo = await api('GET', `/api/account/${encodeURIComponent(account.accountNo)}/history`, { token });
  t.is(byNo.status, 200, byNo.text);
  t.is(byNo.body.content[0]?.type, 'account.created');
  const category = await api('POST', '/api/dms-category', { token, body: { crProcessId: account.crProcessId, categoryName: 'History' } });
  t.is(category.status, 200, category.text);
  const dms = await api('GET', `/api/dms-category/${category.body.id}/history`, { token });
  t.is(dms.status, 200, dms.text);
  t.is(dms.body.content[0]?.type, 'dms-category.created');
});

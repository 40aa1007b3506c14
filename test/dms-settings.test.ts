/**
 * Categories and account settings (docs/interface.md#records: "dms-category | categoryName (unique within
 * parent), parentId, description"; "dms-account-config | one per tenant (a second is 409
 * SVC-SYS-4005)").
 */
import test from 'ava';
import { adminSession, create, freshTenant, unique } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';

const admin = async () => (await adminSession()).token;

test('dms-account-config: "one per tenant (a second is 409 SVC-SYS-4005)", also when two creates race', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const body = { crProcessId: tenant, maxFileSize: 1024, allowedMimeTypes: 'application/pdf', storageQuotaBytes: 0, purgeAfterDays: 0 };
  const first = await api('POST', '/api/dms-account-config', { token, body });
  t.is(first.status, 200, first.text);
  const second = await api('POST', '/api/dms-account-config', { token, body });
  t.is(second.status, 409);
  t.is(second.body.error_code, 'SVC-SYS-4005');

  const other = freshTenant();
  const raced = await Promise.all(Array.from({ length: 5 }, () => api('POST', '/api/dms-account-config', { token, body: { ...body, crProcessId: other } })));
  t.deepEqual(raced.map((res) => res.status).sort(), [200, 409, 409, 409, 409]);
  // another tenant's config is no duplicate; limits keep their ranges
  const bad = await api('POST', '/api/dms-account-config', { token, body: { crProcessId: freshTenant(), maxFileSize: 0 } });
  t.is(bad.status, 400);
});

test('dms-category: "categoryName (unique within parent)" — a duplicate among siblings is 409 SVC-SYS-4005, at the top level too; other parents may reuse it', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const name = unique('Contracts ');
  const top = await create('dms-category', { crProcessId: tenant, categoryName: name });
  const dupTop = await api('POST', '/api/dms-category', { token, body: { crProcessId: tenant, categoryName: name } });
  t.is(dupTop.status, 409, dupTop.text);
  t.is(dupTop.body.error_code, 'SVC-SYS-4005');

  const child = await create('dms-category', { crProcessId: tenant, categoryName: name, parentId: top.id });
  t.is(child.parentId, top.id);
  const dupChild = await api('POST', '/api/dms-category', { token, body: { crProcessId: tenant, categoryName: name, parentId: top.id } });
  t.is(dupChild.status, 409);
  // moving the child to the top would make two top-level categories of one name
  const moved = await api('PUT', `/api/dms-category/${child.id}`, { token, body: { version: 0, parentId: null } });
  t.is(moved.status, 409, moved.text);
  // another tenant's names are its own
  await create('dms-category', { crProcessId: freshTenant(), categoryName: name });
  t.pass();
});

test('dms-category: a category cannot be its own ancestor (400 SVC-SYS-2001 on parentId), a parent of another tenant is refused, a parent with children cannot be deleted', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const a = await create('dms-category', { crProcessId: tenant, categoryName: unique('A ') });
  const b = await create('dms-category', { crProcessId: tenant, categoryName: unique('B '), parentId: a.id });
  const c = await create('dms-category', { crProcessId: tenant, categoryName: unique('C '), parentId: b.id });
  for (const parentId of [a.id, c.id]) {
    const res = await api('PUT', `/api/dms-category/${a.id}`, { token, body: { version: 0, parentId } });
    t.is(res.status, 400, res.text);
    t.is(res.body.error_code, 'SVC-SYS-2001');
    t.regex(res.body.message, /parentId/);
  }
  const foreign = await create('dms-category', { crProcessId: freshTenant(), categoryName: unique('F ') });
  const cross = await api('POST', '/api/dms-category', { token, body: { crProcessId: tenant, categoryName: unique('X '), parentId: foreign.id } });
  t.is(cross.status, 400);
  const referenced = await api('DELETE', `/api/dms-category/${b.id}`, { token });
  t.is(referenced.status, 409);
  t.is(referenced.body.error_code, 'SVC-SYS-4003');

  // two moves at once that would together close a loop: one passes, the other is refused
  const x = await create('dms-category', { crProcessId: tenant, categoryName: unique('X ') });
  const y = await create('dms-category', { crProcessId: tenant, categoryName: unique('Y ') });
  const [xy, yx] = await Promise.all([
    api('PUT', `/api/dms-category/${x.id}`, { token, body: { version: 0, parentId: y.id } }),
    api('PUT', `/api/dms-category/${y.id}`, { token, body: { version: 0, parentId: x.id } }),
  ]);
  // the other sees the first (400 on parentId), or PostgreSQL aborts it as a deadlock (409 SVC-SYS-4002): never both
  // (docs/adr/0028-documents-categories-settings.md), each with its own error body
  t.deepEqual([xy.status === 200, yx.status === 200].sort(), [false, true], `${xy.text} ${yx.text}`);
  const refused = xy.status === 200 ? yx : xy;
  if (refused.status === 400) assertInvalid(t, refused, 'parentId');
  else assertErrorBody(t, refused, 409, 'SVC-SYS-4002');
  const [xNow, yNow] = await Promise.all([x, y].map((c) => api('GET', `/api/dms-category/${c.id}`, { token })));
  t.false(xNow?.body.parentId === y.id && yNow?.body.parentId === x.id, 'no loop is stored');
});

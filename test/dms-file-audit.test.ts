/**
 * "Audit: upload, metadata update, category move, delete, download (signed ...) ... each append one
 * dms-audit-log row" (docs/interface.md#retention-and-audit); "a download through a signed URL [is audited] as DOWNLOAD";
 * the rows stay in the tenant's hash chain (GET /api/dms-audit-log/verify).
 */
import test from 'ava';
import { adminSession, create, createAccount, freshTenant, roleTypeOf, unique, userWithRoles } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;
const LOOPBACK = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/;

async function auditOf(crProcessId: number): Promise<any[]> {
  const res = await api('POST', '/api/dms-audit-log/list', {
    token: await admin(),
    body: { size: 100, filter: { crProcessId }, sorts: [{ field: 'id', direction: 'ASC' }] },
  });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.body.content;
}

test('"upload, metadata update, category move, delete, download (signed)" each append one row: UPLOAD, UPDATE, MOVE, DOWNLOAD, DELETE, chained and intact', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const category = await create('dms-category', { crProcessId: tenant, categoryName: unique('Audit category ') });

  const form = new FormData();
  form.set('crProcessId', String(tenant));
  form.set('file', new Blob(['audited bytes'], { type: 'text/plain' }), 'audited.txt');
  const uploaded = await fetch(`${platform.url}/api/dms-file/upload`, {
    method: 'POST',
    // a forged X-Forwarded-For: the gateway appends the peer it sees, and only that is trusted
    headers: { authorization: `Bearer ${token}`, 'user-agent': 'audit-uploader/1.0', 'x-forwarded-for': '203.0.113.77' },
    body: form,
  });
  t.is(uploaded.status, 200);
  const fileId = ((await uploaded.json()) as any).fileId;

  t.is((await api('PUT', `/api/dms-file/${fileId}`, { token, body: { version: 0, description: 'described', tags: 'a,b' } })).status, 200);
  t.is((await api('PUT', `/api/dms-file/${fileId}/category?categoryId=${category.id}`, { token })).status, 200);
  const signed = await api('GET', `/api/dms-file/${fileId}/download-url?inline=true`, { token });
  const head = await fetch(`${platform.url}${signed.body.url}`, { method: 'HEAD' });
  t.is(head.status, 200);
  const got = await fetch(`${platform.url}${signed.body.url}`, {
    headers: { 'user-agent': 'audit-reader/2.0', 'x-forwarded-for': '198.51.100.1, 203.0.113.5' },
  });
  t.is(await got.text(), 'audited bytes');
  t.is((await api('DELETE', `/api/dms-file/${fileId}`, { token })).status, 204);

  const rows = (await auditOf(tenant)).filter((row) => row.fileId === fileId);
  t.deepEqual(
    rows.map((row) => row.action),
    ['UPLOAD', 'UPDATE', 'MOVE', 'DOWNLOAD', 'DELETE'],
    'HEAD sends no content and is not a download',
  );
  const [up, update, move, down, del] = rows;
  t.like(up, { userCode: 'admin', userAgent: 'audit-uploader/1.0', crProcessId: tenant });
  t.regex(up.ipAddress, LOOPBACK, 'the address the gateway saw, not the forged header');
  t.like(JSON.parse(up.details), { originalFileName: 'audited.txt', fileSize: 13, mimeType: 'text/plain' });
  t.deepEqual(JSON.parse(update.details), { changed: ['description', 'tags'] });
  t.like(move, { userCode: 'admin' });
  t.deepEqual(JSON.parse(move.details), { from: null, to: category.id });
  // the URL download-url signed names who asked for it, and the download is theirs
  t.like(down, { userCode: 'admin', userAgent: 'audit-reader/2.0' });
  t.regex(down.ipAddress, LOOPBACK);
  t.deepEqual(JSON.parse(down.details), { inline: true });
  t.like(del, { userCode: 'admin' });

  const verified = await api('GET', `/api/dms-audit-log/verify?crProcessId=${tenant}`, { token });
  t.deepEqual(verified.body, { intact: true, checked: 5, firstBrokenId: null });
});

test("a signed URL names the user it was signed for, within its signature: their download is audited as them, a changed or added user is 403, the record's own URL is anonymous; each row names its file", async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const form = new FormData();
  form.set('crProcessId', String(tenant));
  form.set('file', new Blob(['whose bytes'], { type: 'text/plain' }), 'whose.txt');
  const uploaded = await fetch(`${platform.url}/api/dms-file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const fileId = ((await uploaded.json()) as any).fileId;

  const signed: string = (await api('GET', `/api/dms-file/${fileId}/download-url`, { token })).body.url;
  t.is(new URL(signed, platform.url).searchParams.get('user'), 'admin');
  const forged = new URL(signed, platform.url);
  forged.searchParams.set('user', 'someone-else');
  t.is((await fetch(forged)).status, 403, 'the user is signed: another one breaks the signature');
  const record = await api('GET', `/api/dms-file/${fileId}`, { token });
  const added = new URL(record.body.downloadUrl, platform.url);
  added.searchParams.set('user', 'admin');
  t.is((await fetch(added)).status, 403, 'a user cannot be added to a URL signed for none');
  t.is((await fetch(`${platform.url}${signed}`)).status, 200);
  t.is((await fetch(`${platform.url}${record.body.downloadUrl}`)).status, 200);

  const rows = (await auditOf(tenant)).filter((row) => row.fileId === fileId);
  t.true(rows.length >= 3 && rows.every((row) => row.fileName === 'whose.txt'), 'each row names its file, with the page: no second request');
  const one = await api('GET', `/api/dms-audit-log/${rows[0].id}`, { token });
  t.is(one.body.fileName, 'whose.txt', 'and get too');
  const downloads = rows.filter((row) => row.action === 'DOWNLOAD');
  t.deepEqual(
    downloads.map((row) => row.userCode),
    ['admin', 'anonymous'],
    'the URL asked for by a user is theirs; the record’s URL names no one',
  );
});

test('an audit row names its file only to who may read files now: dms-audit-log:read alone shows no name, a dms-file:read granted counts from the next request', async (t) => {
  const token = await admin();
  const account = await createAccount();
  const auditor = await userWithRoles(account, ['dms-audit-log:read']);
  const form = new FormData();
  form.set('crProcessId', String(account.crProcessId));
  form.set('file', new Blob(['named bytes'], { type: 'text/plain' }), 'secret-plan.txt');
  const uploaded = await fetch(`${platform.url}/api/dms-file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  t.is(uploaded.status, 200);
  const fileId = ((await uploaded.json()) as any).fileId;
  const seen = async () => {
    const list = await api('POST', '/api/dms-audit-log/list', {
      token: auditor.token,
      body: { size: 100, filter: { crProcessId: account.crProcessId, fileId } },
    });
    t.is(list.status, 200, list.text);
    const row = list.body.content[0];
    const one = await api('GET', `/api/dms-audit-log/${row.id}`, { token: auditor.token });
    t.is(one.status, 200, one.text);
    return { list: list.body.content.map((each: any) => each.fileName), get: one.body.fileName };
  };
  const before = await seen();
  t.true(before.list.length > 0, 'the upload is in the audit log');
  t.deepEqual(before, { list: before.list.map(() => null), get: null }, 'no file name without dms-file:read');
  await create('group-role', {
    crProcessId: account.crProcessId,
    groupId: auditor.group.id,
    roleTypeId: (await roleTypeOf(account.crProcessId, 'dms-file:read')).id,
  });
  const after = await seen();
  t.deepEqual(after, { list: after.list.map(() => 'secret-plan.txt'), get: 'secret-plan.txt' }, 'named once the role is held');
});

test('a refused write leaves no audit row: a move to an unknown category, an update with a stale version', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const form = new FormData();
  form.set('crProcessId', String(tenant));
  form.set('file', new Blob(['refusals']), 'r.txt');
  const uploaded = await fetch(`${platform.url}/api/dms-file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const fileId = ((await uploaded.json()) as any).fileId;
  t.is((await api('PUT', `/api/dms-file/${fileId}/category?categoryId=999999999999`, { token })).status, 400);
  t.is((await api('PUT', `/api/dms-file/${fileId}`, { token, body: { version: 7, description: 'stale' } })).status, 409);
  t.deepEqual(
    (await auditOf(tenant)).map((row) => row.action),
    ['UPLOAD'],
  );
  t.true((await api('GET', `/api/dms-audit-log/verify?crProcessId=${tenant}`, { token })).body.intact);
});

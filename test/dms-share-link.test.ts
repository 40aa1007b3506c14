/**
 * Share links (docs/interface.md#records: "dms-share-link | fileId, expiresAt, password (write-only;
 * hasPassword on read), maxDownloads; read-only: token, url, downloadCount"; docs/interface.md#share-links: "token is at least
 * 32 random bytes in base64url; url is /api/dms-share-link/public/{token}").
 */
import test from 'ava';
import bcrypt from 'bcrypt';
import { adminSession, create, freshTenant } from './helpers/factories.ts';
import { uploadRecord } from './helpers/files.ts';
import { sql } from './helpers/db.ts';
import { api } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;

/** One uploaded file per tenant: a link's fileId names a dms-file of its own tenant. */
const files = new Map<number, Promise<number>>();
function fileOf(crProcessId: number): Promise<number> {
  let id = files.get(crProcessId);
  if (!id) {
    id = admin()
      .then((token) => uploadRecord(token, crProcessId, `shared file of ${crProcessId}`))
      .then((file) => file.id as number);
    files.set(crProcessId, id);
  }
  return id;
}
const linkBody = async (crProcessId: number, overrides: Record<string, unknown> = {}) => ({ crProcessId, fileId: await fileOf(crProcessId), ...overrides });

test('"token is at least 32 random bytes in base64url", unique per link, with url "/api/dms-share-link/public/{token}", and an update never changes it', async (t) => {
  const tenant = freshTenant();
  const links = await Promise.all(Array.from({ length: 5 }, async () => create('dms-share-link', await linkBody(tenant))));
  for (const link of links) {
    t.regex(link.token, /^[A-Za-z0-9_-]+$/);
    t.true(Buffer.from(link.token, 'base64url').length >= 32);
    t.is(link.url, `/api/dms-share-link/public/${link.token}`);
    t.is(link.downloadCount, 0);
  }
  t.is(new Set(links.map((link) => link.token)).size, links.length);

  const [first] = links;
  const updated = await api('PUT', `/api/dms-share-link/${first.id}`, {
    token: await admin(),
    body: { version: 0, maxDownloads: 3, token: 'chosen-by-the-client', url: '/elsewhere', downloadCount: 99 },
  });
  t.is(updated.status, 200, updated.text);
  t.like(updated.body, { token: first.token, url: first.url, downloadCount: 0, maxDownloads: 3 });
});

test('"password (write-only; hasPassword on read)": never returned, stored as a bcrypt hash, hasPassword follows it', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const plain = await create('dms-share-link', await linkBody(tenant));
  t.false(plain.hasPassword);
  const guarded = await create('dms-share-link', await linkBody(tenant, { password: 'share-secret-1' }));
  t.true(guarded.hasPassword);
  t.false('password' in guarded);
  const got = await api('GET', `/api/dms-share-link/${guarded.id}`, { token });
  t.false('password' in got.body);
  const listed = await api('POST', '/api/dms-share-link/list', { token, body: { filter: { crProcessId: tenant } } });
  t.false(listed.text.includes('share-secret-1'));
  t.false(listed.text.includes('$2'));

  const [row] = await sql<{ password: string }>('select password from dms.dms_share_link where id = $1', [guarded.id]);
  t.regex(row?.password ?? '', /^\$2[aby]\$\d{2}\$/);
  t.true(await bcrypt.compare('share-secret-1', row?.password ?? ''));

  // cleared with the password itself
  const cleared = await api('PUT', `/api/dms-share-link/${guarded.id}`, { token, body: { version: 0, password: null } });
  t.is(cleared.status, 200, cleared.text);
  t.false(cleared.body.hasPassword);
  const set = await api('PUT', `/api/dms-share-link/${plain.id}`, { token, body: { version: 0, password: 'another-secret' } });
  t.true(set.body.hasPassword);
});

test('share-link fields keep their rules: fileId required, maxDownloads at least 1', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  for (const body of [{ crProcessId: tenant }, await linkBody(tenant, { maxDownloads: 0 })]) {
    const res = await api('POST', '/api/dms-share-link', { token, body });
    t.is(res.status, 400, res.text);
    t.is(res.body.error_code, 'SVC-SYS-2001');
  }
});

test('every answer carrying a share token or a signed URL says Cache-Control: no-store: share-link create, replay, get, list, update, validate-password; file get, list, search, by-entity, move, download-url', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const fileId = await fileOf(tenant);
  const category = await create('dms-category', { crProcessId: tenant, categoryName: `no-store ${tenant}` });
  const idempotencyKey = `no-store-${tenant}`;
  const made = await api('POST', '/api/dms-share-link', {
    token,
    body: await linkBody(tenant, { password: 'no-store-pass' }),
    headers: { 'idempotency-key': idempotencyKey },
  });
  const replayed = await api('POST', '/api/dms-share-link', {
    token,
    body: await linkBody(tenant, { password: 'no-store-pass' }),
    headers: { 'idempotency-key': idempotencyKey },
  });
  t.is(replayed.headers.get('idempotent-replayed'), 'true', 'the second create is a replay');
  const link = made.body;
  const answers = {
    'share-link create': made,
    'share-link replayed create': replayed,
    'share-link get': await api('GET', `/api/dms-share-link/${link.id}`, { token }),
    'share-link list': await api('POST', '/api/dms-share-link/list', { token, body: { filter: { crProcessId: tenant } } }),
    'share-link update': await api('PUT', `/api/dms-share-link/${link.id}`, { token, body: { version: link.version, maxDownloads: 5 } }),
    'validate-password, right': await api('POST', `${link.url}/validate-password`, { body: { password: 'no-store-pass' } }),
    'file get': await api('GET', `/api/dms-file/${fileId}`, { token }),
    'file list': await api('POST', '/api/dms-file/list', { token, body: { filter: { crProcessId: tenant } } }),
    'file search': await api('GET', `/api/dms-file/search?crProcessId=${tenant}&searchTerm=shared`, { token }),
    'file by-entity': await api('GET', `/api/dms-file/by-entity?entityType=none&entityId=1`, { token }),
    'file move': await api('PUT', `/api/dms-file/${fileId}/category?categoryId=${category.id}`, { token }),
    'download-url': await api('GET', `/api/dms-file/${fileId}/download-url`, { token }),
  };
  for (const [what, answer] of Object.entries(answers)) {
    t.is(answer.status, 200, `${what}: ${answer.text}`);
    t.is(answer.headers.get('cache-control'), 'no-store', what);
  }
  // what they carry: the token, its url, a signed path
  t.true(answers['share-link list'].text.includes(link.token));
  t.regex(answers['validate-password, right'].body.downloadUrl, /[?&]token=/);
  t.regex(answers['file get'].body.downloadUrl, /[?&]token=/);
  t.regex(answers['download-url'].body.url, /[?&]token=/);
  // a wrong password's answer, an error body, is not kept either
  const wrong = await api('POST', `${link.url}/validate-password`, { body: { password: 'not it' } });
  t.is(wrong.status, 403, wrong.text);
  t.is(wrong.headers.get('cache-control'), 'no-store', 'validate-password, wrong');
});

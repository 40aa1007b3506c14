/**
 * The document audit log (docs/interface.md#retention-and-audit: "share-link create/update/delete ... each append one
 * dms-audit-log row. Audit rows are never updated or deleted through the API"; docs/interface.md#retention-and-audit: "Audit rows ...
 * belong to their record's tenant") and its hash chain per tenant (docs/adr/0029-the-audit-chain-a-hash-chain.md).
 */
import test from 'ava';
import { adminSession, create, createAccount, freshTenant, userWithRoles } from './helpers/factories.ts';
import { uploadRecord } from './helpers/files.ts';
import { withDb } from './helpers/db.ts';
import { api } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;

async function auditOf(crProcessId: number, filter: Record<string, unknown> = {}): Promise<any[]> {
  const res = await api('POST', '/api/dms-audit-log/list', {
    token: await admin(),
    body: { size: 500, filter: { crProcessId, ...filter }, sorts: [{ field: 'id', direction: 'ASC' }] },
  });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.body.content;
}

async function verify(crProcessId: number, token?: string) {
  return api('GET', `/api/dms-audit-log/verify?crProcessId=${crProcessId}`, { token: token ?? (await admin()) });
}

/** A file of the tenant for links to name (its upload appends the tenant's first audit row, UPLOAD). */
async function fileOf(crProcessId: number): Promise<number> {
  return (await uploadRecord(await admin(), crProcessId, `audited file ${crProcessId}`)).id;
}

test('"share-link create/update/delete ... each append one dms-audit-log row", in the link\'s tenant, chained by hash', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const fileId = await fileOf(tenant);
  const link = await create('dms-share-link', { crProcessId: tenant, fileId, password: 'audit-secret' });
  t.is((await api('PUT', `/api/dms-share-link/${link.id}`, { token, body: { version: 0, maxDownloads: 2 } })).status, 200);
  t.is((await api('DELETE', `/api/dms-share-link/${link.id}`, { token })).status, 204);

  const rows = await auditOf(tenant, { shareLinkId: link.id });
  t.deepEqual(
    rows.map((row) => row.action),
    ['SHARE_CREATE', 'SHARE_UPDATE', 'SHARE_DELETE'],
  );
  for (const row of rows) {
    t.like(row, { crProcessId: tenant, shareLinkId: link.id, fileId, userCode: 'admin' });
    t.regex(row.hash, /^[0-9a-f]{64}$/);
    t.false(JSON.stringify(row).includes('audit-secret'));
    t.false(JSON.stringify(row).includes(link.token), 'the token is a credential: never in the audit');
  }
  const [upload] = await auditOf(tenant, { action: 'UPLOAD' });
  t.is(upload.previousHash, '0'.repeat(64), "the tenant's first row: the upload of the file");
  t.is(rows[0].previousHash, upload.hash);
  t.is(rows[1].previousHash, rows[0].hash);
  t.is(rows[2].previousHash, rows[1].hash);
  t.deepEqual(JSON.parse(rows[1].details), { changed: ['maxDownloads'] });

  // "never updated or deleted through the API"
  t.is((await api('PUT', `/api/dms-audit-log/${rows[0].id}`, { token, body: { version: 0, action: 'UPLOAD' } })).status, 404);
  t.is((await api('DELETE', `/api/dms-audit-log/${rows[0].id}`, { token })).status, 404);
  t.is((await api('POST', '/api/dms-audit-log', { token, body: { crProcessId: tenant, action: 'UPLOAD' } })).status, 404);
  t.deepEqual(await verify(tenant).then((res) => res.body), { intact: true, checked: 4, firstBrokenId: null });
});

test('a share-link write that fails leaves no audit row, and an audit row that cannot be written fails the write: one transaction', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const marker = await fileOf(tenant);
  const link = await create('dms-share-link', { crProcessId: tenant, fileId: marker });
  await withDb(async (db) => {
    // the delete itself fails after its SHARE_DELETE row was appended; the create of one more link fails on its SHARE_CREATE row
    await db.query(`create or replace function dms.fail_${marker}() returns trigger language plpgsql as $$
      begin raise exception 'injected failure'; end $$`);
    await db.query(
      `create trigger fail_${marker} before delete on dms.dms_share_link for each row when (old.file_id = ${marker}) execute function dms.fail_${marker}()`,
    );
    await db.query(
      `create trigger fail_audit_${marker} before insert on dms.dms_audit_log for each row when (new.file_id = ${marker} and new.action = 'SHARE_CREATE') execute function dms.fail_${marker}()`,
    );
  });
  try {
    const deleted = await api('DELETE', `/api/dms-share-link/${link.id}`, { token });
    t.is(deleted.status, 500, deleted.text);
    const created = await api('POST', '/api/dms-share-link', { token, body: { crProcessId: tenant, fileId: marker } });
    t.is(created.status, 500, created.text);
  } finally {
    await withDb(async (db) => {
      await db.query(`drop trigger fail_${marker} on dms.dms_share_link`);
      await db.query(`drop trigger fail_audit_${marker} on dms.dms_audit_log`);
      await db.query(`drop function dms.fail_${marker}()`);
    });
  }
  t.is((await api('GET', `/api/dms-share-link/${link.id}`, { token })).status, 200, 'the link is still there');
  t.deepEqual(
    (await auditOf(tenant)).map((row) => row.action),
    ['UPLOAD', 'SHARE_CREATE'],
    'neither the failed delete nor the failed create left a row',
  );
  const links = await api('POST', '/api/dms-share-link/list', { token, body: { filter: { crProcessId: tenant } } });
  t.is(links.body.totalElements, 1);
  t.true((await verify(tenant)).body.intact);
});

test('the hash chain stays intact under 20 share links created at once in one tenant: verify answers intact, every row links to the one before', async (t) => {
  const tenant = freshTenant();
  const fileId = await fileOf(tenant);
  await Promise.all(Array.from({ length: 20 }, () => create('dms-share-link', { crProcessId: tenant, fileId })));
  const rows = await auditOf(tenant);
  t.deepEqual(
    rows.map((row) => row.action),
    ['UPLOAD', ...Array<string>(20).fill('SHARE_CREATE')],
  );
  t.is(new Set(rows.map((row) => row.previousHash)).size, 21, 'no two rows claim the same predecessor');
  rows.forEach((row, i) => t.is(row.previousHash, i === 0 ? '0'.repeat(64) : rows[i - 1].hash));
  const res = await verify(tenant);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { intact: true, checked: 21, firstBrokenId: null });
});

test("the database refuses UPDATE and DELETE of audit rows; a row changed anyway (trigger disabled by the table's owner) is reported by verify as the first broken id", async (t) => {
  const tenant = freshTenant();
  const fileId = await fileOf(tenant);
  for (let i = 1; i <= 3; i++) await create('dms-share-link', { crProcessId: tenant, fileId });
  const rows = await auditOf(tenant);
  const victim = rows[2];
  await withDb(async (db) => {
    await t.throwsAsync(db.query('update dms.dms_audit_log set user_code = $1 where id = $2', ['mallory', victim.id]), { message: /append-only/ });
    await t.throwsAsync(db.query('delete from dms.dms_audit_log where id = $1', [victim.id]), { message: /append-only/ });
    // ALTER TABLE holds its lock to the commit: no other session ever sees the trigger disabled
    await db.query('begin');
    await db.query('alter table dms.dms_audit_log disable trigger dms_audit_log_append_only');
    await db.query('update dms.dms_audit_log set user_code = $1 where id = $2', ['mallory', victim.id]);
    await db.query('alter table dms.dms_audit_log enable trigger dms_audit_log_append_only');
    await db.query('commit');
  });
  const res = await verify(tenant);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { intact: false, checked: 3, firstBrokenId: victim.id });
  t.true((await verify(freshTenant())).body.intact, 'a tenant without rows is intact');
});

test("GET /api/dms-audit-log/verify needs dms-audit-log:read, names only the caller's own tenant, and requires crProcessId", async (t) => {
  const account = await createAccount();
  const [reader, nobody] = await Promise.all([userWithRoles(account, ['dms-audit-log:read']), userWithRoles(account, [])]);
  t.is((await verify(account.crProcessId, reader.token)).status, 200);
  const denied = await verify(account.crProcessId, nobody.token);
  t.is(denied.status, 403);
  t.is(denied.body.error_code, 'SVC-SYS-1003');
  const other = await verify(freshTenant(), reader.token);
  t.is(other.status, 403);
  t.is(other.body.error_code, 'SVC-SYS-1003');
  const missing = await api('GET', '/api/dms-audit-log/verify', { token: reader.token });
  t.is(missing.status, 400);
  t.is(missing.body.error_code, 'SVC-SYS-2002');
});

test("rows of writes over gRPC (share-link and file metadata) carry the client's address and User-Agent as the gateway judged them", async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const fileId = await fileOf(tenant);
  const category = await create('dms-category', { crProcessId: tenant, categoryName: 'Audited' });
  // a User-Agent is latin1 text: é travels as a binary metadata value and arrives as it was sent
  const headers = { 'user-agent': 'audit-client/2.0 (caf\u00e9)', 'x-forwarded-for': '203.0.113.9' };
  const link = await api('POST', '/api/dms-share-link', { token, headers, body: { crProcessId: tenant, fileId } });
  t.is(link.status, 200, link.text);
  t.is((await api('PUT', `/api/dms-share-link/${link.body.id}`, { token, headers, body: { version: 0, maxDownloads: 3 } })).status, 200);
  t.is((await api('PUT', `/api/dms-file/${fileId}/category?categoryId=${category.id}`, { token, headers })).status, 200);
  const current = await api('GET', `/api/dms-file/${fileId}`, { token });
  t.is((await api('PUT', `/api/dms-file/${fileId}`, { token, headers, body: { version: current.body.version, description: 'audited' } })).status, 200);
  t.is((await api('DELETE', `/api/dms-share-link/${link.body.id}`, { token, headers })).status, 204);
  t.is((await api('DELETE', `/api/dms-file/${fileId}`, { token, headers })).status, 204);

  const rows = (await auditOf(tenant)).filter((row) => row.action !== 'UPLOAD');
  t.deepEqual(
    rows.map((row) => row.action),
    ['SHARE_CREATE', 'SHARE_UPDATE', 'MOVE', 'UPDATE', 'SHARE_DELETE', 'DELETE'],
  );
  for (const row of rows) {
    t.is(row.userAgent, headers['user-agent'], row.action);
    // the gateway trusts no proxy here (TRUST_PROXY 0): the socket's address, never the client's X-Forwarded-For
    t.regex(row.ipAddress ?? '', /^(::ffff:)?127\.0\.0\.1$|^::1$/, row.action);
    t.is(row.userCode, 'admin');
  }
  t.like((await verify(tenant)).body, { intact: true });
});

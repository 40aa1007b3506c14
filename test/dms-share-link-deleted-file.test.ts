/**
 * A share link names a live file (docs/adr/0028-documents-categories-settings.md: fileId): creating one for a
 * soft-deleted dms-file, or moving one to it (update of fileId), is 400 SVC-SYS-2001 naming fileId,
 * as for another tenant's file, and writes nothing; a delete under way when the link is written is
 * waited for, not raced past.
 */
import test from 'ava';
import { adminSession, create, freshTenant } from './helpers/factories.ts';
import { uploadRecord } from './helpers/files.ts';
import { assertInvalid } from './helpers/error-body.ts';
import { withDb } from './helpers/db.ts';
import { api } from './helpers/platform.ts';

async function deletedFile(token: string, crProcessId: number): Promise<number> {
  const file = await uploadRecord(token, crProcessId, 'soon deleted');
  const removed = await api('DELETE', `/api/dms-file/${file.id}`, { token });
  if (removed.status !== 204) throw new Error(`delete: ${removed.status} ${removed.text}`);
  return file.id;
}

async function linksOf(token: string, crProcessId: number, fileId: number): Promise<number> {
  const res = await api('POST', '/api/dms-share-link/list', { token, body: { filter: { crProcessId, fileId } } });
  if (res.status !== 200) throw new Error(`list: ${res.status} ${res.text}`);
  return res.body.totalElements;
}

test('a share link for a soft-deleted file is 400 SVC-SYS-2001 on fileId and no link is written', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const fileId = await deletedFile(token, tenant);
  const res = await api('POST', '/api/dms-share-link', { token, body: { crProcessId: tenant, fileId } });
  assertInvalid(t, res, 'fileId');
  t.is(await linksOf(token, tenant, fileId), 0);
});

test('moving a share link to a soft-deleted file is 400 SVC-SYS-2001 on fileId and the link keeps its file', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const live = await uploadRecord(token, tenant, 'live');
  const link = await create('dms-share-link', { crProcessId: tenant, fileId: live.id });
  const fileId = await deletedFile(token, tenant);
  const res = await api('PUT', `/api/dms-share-link/${link.id}`, { token, body: { version: link.version, fileId } });
  assertInvalid(t, res, 'fileId');
  const after = await api('GET', `/api/dms-share-link/${link.id}`, { token });
  t.like(after.body, { fileId: live.id, version: link.version });
  // an update that leaves fileId alone is not judged by it: a link may name a file deleted since
  const removed = await api('DELETE', `/api/dms-file/${live.id}`, { token });
  t.is(removed.status, 204, removed.text);
  const touched = await api('PUT', `/api/dms-share-link/${link.id}`, { token, body: { version: link.version, maxDownloads: 3 } });
  t.is(touched.status, 200, touched.text);
});

test("a link written while the file's soft delete is under way waits for it and is refused once it commits (no race past a check)", async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const file = await uploadRecord(token, tenant, 'deleted meanwhile');
  await withDb(async (db) => {
    await db.query('begin');
    // the delete's UPDATE, uncommitted: the link's write must not judge the row as it was before
    await db.query('update dms.dms_file set deleted = true, version = version + 1 where id = $1', [file.id]);
    const creating = api('POST', '/api/dms-share-link', { token, body: { crProcessId: tenant, fileId: file.id } });
    const deadline = Date.now() + 10_000;
    let waiting = 0;
    while (waiting === 0 && Date.now() < deadline) {
      const { rows } = await db.query('select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))');
      waiting = rows[0].n;
      if (waiting === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    t.is(waiting, 1, "the link's write waits for the file's row");
    await db.query('commit');
    assertInvalid(t, await creating, 'fileId');
  });
  t.is(await linksOf(token, tenant, file.id), 0);
});

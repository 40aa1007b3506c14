/**
 * "A legal hold on a file keeps it from deletion and retention (409) until lifted": `legalHold` on
 * dms-file, set and lifted by an update (dms-file:write) audited as UPDATE; while it holds, DELETE
 * is 409 SVC-SYS-4004 (docs/adr/0035-legal-hold.md).
 */
import test from 'ava';
import { adminSession, createAccount, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { uploadRecord } from './helpers/files.ts';
import { api } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;

async function auditOf(crProcessId: number, fileId: number): Promise<any[]> {
  const res = await api('POST', '/api/dms-audit-log/list', {
    token: await admin(),
    body: { size: 100, filter: { crProcessId, fileId }, sorts: [{ field: 'id', direction: 'ASC' }] },
  });
  return res.body.content;
}

test('"a legal hold keeps it from deletion (409) until lifted": DELETE is 409 SVC-SYS-4004 while legalHold, 204 once lifted; each change audited as UPDATE', async (t) => {
  const token = await admin();
  const account = await createAccount();
  const file = await uploadRecord(token, account.crProcessId, 'held bytes');
  t.false(file.legalHold, 'a new file is not held');

  const held = await api('PUT', `/api/dms-file/${file.id}`, { token, body: { version: 0, legalHold: true } });
  t.is(held.status, 200, held.text);
  t.like(held.body, { legalHold: true, version: 1 });

  assertErrorBody(t, await api('DELETE', `/api/dms-file/${file.id}`, { token }), 409, 'SVC-SYS-4004');
  t.like((await api('GET', `/api/dms-file/${file.id}`, { token })).body, { legalHold: true, deleted: false, version: 1 });

  const lifted = await api('PUT', `/api/dms-file/${file.id}`, { token, body: { version: 1, legalHold: false } });
  t.is(lifted.status, 200, lifted.text);
  t.is((await api('DELETE', `/api/dms-file/${file.id}`, { token })).status, 204);

  const rows = await auditOf(account.crProcessId, file.id);
  t.deepEqual(
    rows.map((row) => row.action),
    ['UPLOAD', 'UPDATE', 'UPDATE', 'DELETE'],
    'the refused delete left no row',
  );
  t.deepEqual(JSON.parse(rows[1].details), { changed: ['legalHold'], legalHold: true });
  t.deepEqual(JSON.parse(rows[2].details), { changed: ['legalHold'], legalHold: false });
  t.true((await api('GET', `/api/dms-audit-log/verify?crProcessId=${account.crProcessId}`, { token })).body.intact);
});

test('setting or lifting a legal hold is an update: dms-file:write (403 SVC-SYS-1003 without it); dms-file:delete alone cannot pass a hold', async (t) => {
  const account = await createAccount();
  const file = await uploadRecord(await admin(), account.crProcessId, 'guarded bytes');
  const [reader, deleter, writer] = await Promise.all([
    userWithRoles(account, ['dms-file:read']),
    userWithRoles(account, ['dms-file:read', 'dms-file:delete']),
    userWithRoles(account, ['dms-file:read', 'dms-file:write']),
  ]);
  assertErrorBody(t, await api('PUT', `/api/dms-file/${file.id}`, { token: reader.token, body: { version: 0, legalHold: true } }), 403, 'SVC-SYS-1003');
  t.is((await api('PUT', `/api/dms-file/${file.id}`, { token: writer.token, body: { version: 0, legalHold: true } })).status, 200);
  assertErrorBody(t, await api('DELETE', `/api/dms-file/${file.id}`, { token: deleter.token }), 409, 'SVC-SYS-4004');
  assertErrorBody(t, await api('PUT', `/api/dms-file/${file.id}`, { token: deleter.token, body: { version: 1, legalHold: false } }), 403, 'SVC-SYS-1003');
  t.is((await api('GET', `/api/dms-file/${file.id}`, { token: reader.token })).body.legalHold, true);
});

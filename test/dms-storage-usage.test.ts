/**
 * GET /api/dms-file/usage (docs/interface.md#files): a tenant's live files' bytes and count, and its
 * storageQuotaBytes (null without one); dms-file:read; crProcessId required; own tenant only.
 */
import test from 'ava';
import { adminSession, create, createAccount, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { uploadRecord } from './helpers/files.ts';
import { api } from './helpers/platform.ts';

const usage = (query: string, token: string) => api('GET', `/api/dms-file/usage?${query}`, { token });

test('the bytes and count of live files, a deleted one left out, beside the quota', async (t) => {
  const { token } = await adminSession();
  const account = await createAccount();
  const tenant = account.crProcessId;
  t.deepEqual(
    (await usage(`crProcessId=${tenant}`, token)).body,
    { usedBytes: 0, fileCount: 0, storageQuotaBytes: null, reservedBytes: 0 },
    'no files, no quota',
  );

  await create('dms-account-config', { crProcessId: tenant, storageQuotaBytes: 5000 });
  await Promise.all([uploadRecord(token, tenant, new Uint8Array(120), 'a.bin'), uploadRecord(token, tenant, new Uint8Array(30), 'b.bin')]);
  const gone = await uploadRecord(token, tenant, new Uint8Array(7), 'c.bin');
  t.is((await api('DELETE', `/api/dms-file/${gone.id}`, { token })).status, 204);
  const reader = await userWithRoles(account, ['dms-file:read']);
  const res = await usage(`crProcessId=${tenant}`, reader.token);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { usedBytes: 150, fileCount: 2, storageQuotaBytes: 5000, reservedBytes: 0 });
});

test('another tenant is 403, no dms-file:read is 403, no crProcessId is 400 SVC-SYS-2002', async (t) => {
  const [a, b] = await Promise.all([createAccount(), createAccount()]);
  const [reader, other] = await Promise.all([userWithRoles(a, ['dms-file:read']), userWithRoles(a, ['dms-file:write', 'dms-account-config:read'])]);
  t.is((await usage(`crProcessId=${a.crProcessId}`, reader.token)).status, 200);
  assertErrorBody(t, await usage(`crProcessId=${b.crProcessId}`, reader.token), 403, 'SVC-SYS-1003');
  assertErrorBody(t, await usage(`crProcessId=${a.crProcessId}`, other.token), 403, 'SVC-SYS-1003');
  assertErrorBody(t, await usage('', reader.token), 400, 'SVC-SYS-2002');
});

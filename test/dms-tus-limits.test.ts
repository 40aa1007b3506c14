/**
 * What an unfinished resumable upload holds (docs/adr/0102-what-an-unfinished-resumable-upload.md,
 * docs/interface.md#files "Resumable uploads"): its declared length is reserved against the
 * tenant's quota from its creation, one user holds at most DMS_TUS_MAX_OPEN_UPLOADS (20 here, the
 * default) open uploads, the type is judged at the creation (the claimed filetype) and again on the
 * first bytes, and a creation repeated under one Idempotency-Key is one upload.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import { create, createAccount, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { tusNames } from './helpers/files.ts';
import { sql } from './helpers/db.ts';
import { api } from './helpers/platform.ts';
import { createUpload, patch, tus } from './helpers/tus.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const idOf = (location: string | null) => (location ?? '').split('/').pop() ?? '';

/** A tenant with `config` as its dms-account-config and a user holding dms-file:read and write in it. */
async function tenantWith(config: Record<string, unknown>) {
  const account = await createAccount();
  await create('dms-account-config', { crProcessId: account.crProcessId, ...config });
  const user = await userWithRoles(account, ['dms-file:write', 'dms-file:read']);
  return { account, crProcessId: account.crProcessId as number, token: user.token };
}

test('unfinished uploads count against the quota: with 100,000 bytes, a second upload of 59,999 beside one patched to 59,998 is 413 SVC-SYS-3007', async (t) => {
  // the contract: storageQuotaBytes, "over its storage quota 413 SVC-SYS-3007" (docs/interface.md#files)
  const { crProcessId, token } = await tenantWith({ storageQuotaBytes: 100_000 });
  const first = await createUpload(token, crProcessId, 59_999);
  t.is(first.status, 201, first.text);
  const location = first.headers.get('location') ?? '';
  const parked = await patch(token, location, 0, randomBytes(59_998));
  t.is(parked.status, 204, parked.text);
  t.is(parked.headers.get('upload-offset'), '59998');
  const usage = await api('GET', `/api/dms-file/usage?crProcessId=${crProcessId}`, { token });
  t.like(usage.body, { usedBytes: 0, reservedBytes: 59_999, storageQuotaBytes: 100_000 }, 'the usage shows what the upload holds');
  for (let i = 0; i < 4; i++) {
    const next = await createUpload(token, crProcessId, 59_999);
    assertErrorBody(t, next, 413, 'SVC-SYS-3007');
    t.is(next.headers.get('location'), null, 'no upload was made');
  }
  // what is left beside the reservation still fits
  const rest = await createUpload(token, crProcessId, 100_000 - 59_999);
  t.is(rest.status, 201, rest.text);
  t.is((await tus('DELETE', rest.headers.get('location') ?? '', token)).status, 204);
  // completing the upload turns its reservation into the file: counted once, not twice
  const done = await patch(token, location, 59_998, randomBytes(1));
  t.is(done.status, 204, done.text);
  t.regex(done.headers.get('upload-file-id') ?? '', /^\d+$/);
  t.like((await api('GET', `/api/dms-file/usage?crProcessId=${crProcessId}`, { token })).body, { usedBytes: 59_999, reservedBytes: 0 });
  t.is((await createUpload(token, crProcessId, 100_000 - 59_999)).status, 201);
  assertErrorBody(t, await createUpload(token, crProcessId, 1), 413, 'SVC-SYS-3007');
});

test('a terminated upload releases its reservation at once', async (t) => {
  const { crProcessId, token } = await tenantWith({ storageQuotaBytes: 1000 });
  const first = await createUpload(token, crProcessId, 900);
  t.is(first.status, 201, first.text);
  assertErrorBody(t, await createUpload(token, crProcessId, 900), 413, 'SVC-SYS-3007');
  t.is((await tus('DELETE', first.headers.get('location') ?? '', token)).status, 204);
  const again = await createUpload(token, crProcessId, 900);
  t.is(again.status, 201, again.text);
});

test('creations at once never pass a quota together: of 6 uploads of 30,000 against 100,000, exactly 3 are created', async (t) => {
  const { crProcessId, token } = await tenantWith({ storageQuotaBytes: 100_000 });
  const answers = await Promise.all(Array.from({ length: 6 }, () => createUpload(token, crProcessId, 30_000)));
  const statuses = answers.map((answer) => answer.status).sort();
  t.deepEqual(statuses, [201, 201, 201, 413, 413, 413], answers.map((answer) => answer.text).join(' | '));
  for (const answer of answers.filter((one) => one.status === 413)) assertErrorBody(t, answer, 413, 'SVC-SYS-3007');
});

test('a user holds at most 20 unfinished uploads (DMS_TUS_MAX_OPEN_UPLOADS): the 21st creation is 413 SVC-SYS-3007 until one is finished or terminated', async (t) => {
  const { account, crProcessId, token } = await tenantWith({});
  const locations: string[] = [];
  for (let i = 0; i < 20; i++) {
    const created = await createUpload(token, crProcessId, 10);
    t.is(created.status, 201, created.text);
    locations.push(created.headers.get('location') ?? '');
  }
  const refused = await createUpload(token, crProcessId, 10);
  assertErrorBody(t, refused, 413, 'SVC-SYS-3007');
  t.regex(refused.body.message, /20 unfinished uploads/);
  t.is(refused.headers.get('location'), null);
  // another user of the tenant has its own count
  const other = await userWithRoles(account, ['dms-file:write']);
  t.is((await createUpload(other.token, crProcessId, 10)).status, 201);
  // finishing one frees its place, and so does terminating one
  const finished = await patch(token, locations[0] ?? '', 0, Buffer.alloc(10, 7));
  t.is(finished.status, 204, finished.text);
  t.is((await createUpload(token, crProcessId, 10)).status, 201);
  assertErrorBody(t, await createUpload(token, crProcessId, 10), 413, 'SVC-SYS-3007');
  t.is((await tus('DELETE', locations[1] ?? '', token)).status, 204);
  t.is((await createUpload(token, crProcessId, 10)).status, 201);
});

test('a claimed filetype outside allowedMimeTypes is 415 SVC-SYS-3002 at the creation; nothing is made', async (t) => {
  // the contract: allowedMimeTypes, "a type outside allowedMimeTypes 415 SVC-SYS-3002" (docs/interface.md#files)
  const { crProcessId, token } = await tenantWith({ allowedMimeTypes: 'application/pdf' });
  const refused = await createUpload(token, crProcessId, 5000, { filetype: 'image/png' });
  assertErrorBody(t, refused, 415, 'SVC-SYS-3002');
  t.is(refused.headers.get('location'), null, 'no upload was made');
  t.is((await createUpload(token, crProcessId, 5000, { filetype: 'Application/PDF; x=1' })).status, 201, 'an allowed claim, parameters aside');
  t.is((await createUpload(token, crProcessId, 5000)).status, 201, 'no claim: the content decides');
});

test('content of a type outside allowedMimeTypes is 415 SVC-SYS-3002 at the PATCH bringing its first 4,100 bytes: upload, bytes and reservation gone', async (t) => {
  const { crProcessId, token } = await tenantWith({ allowedMimeTypes: 'application/pdf', storageQuotaBytes: 20_000 });
  const content = Buffer.concat([PNG, randomBytes(12_000 - PNG.length)]);
  const created = await createUpload(token, crProcessId, content.length, { filetype: 'application/pdf' });
  t.is(created.status, 201, created.text);
  const location = created.headers.get('location') ?? '';
  // fewer bytes than the sniff window: not judged yet
  const some = await patch(token, location, 0, content.subarray(0, 4000));
  t.is(some.status, 204, some.text);
  const refused = await patch(token, location, 4000, content.subarray(4000, 6000));
  assertErrorBody(t, refused, 415, 'SVC-SYS-3002');
  t.is((await tus('HEAD', location, token)).status, 404);
  t.false(
    (await tusNames()).some((name) => name.startsWith(idOf(location))),
    'the parked bytes are gone',
  );
  t.deepEqual(await sql('select id from dms.dms_tus_upload where id = $1', [idOf(location)]), [], 'the reservation is gone');
  // and the whole quota is free again
  t.is((await createUpload(token, crProcessId, 20_000, { filetype: 'application/pdf' })).status, 201);
});

test('a creation with an Idempotency-Key sent again is the same upload: 201 with the same Location; another request under the key is 422', async (t) => {
  // docs/interface.md#idempotent-requests: the same key and body give the first answer again
  const { crProcessId, token } = await tenantWith({});
  const key = { 'idempotency-key': randomUUID() };
  const first = await createUpload(token, crProcessId, 100, {}, undefined, key);
  t.is(first.status, 201, first.text);
  t.is(first.headers.get('idempotent-replayed'), null);
  const location = first.headers.get('location') ?? '';
  t.is((await patch(token, location, 0, Buffer.alloc(30, 1))).status, 204);
  const again = await createUpload(token, crProcessId, 100, {}, undefined, key);
  t.is(again.status, 201, again.text);
  t.is(again.headers.get('location'), location);
  t.is(again.headers.get('upload-offset'), '30', 'where to resume');
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(
    await sql('select count(*)::int as n from dms.dms_tus_upload where owner_user = (select owner_user from dms.dms_tus_upload where id = $1)', [
      idOf(location),
    ]),
    [{ n: 1 }],
    'one upload reserved',
  );
  const other = await createUpload(token, crProcessId, 100, { description: 'another' }, undefined, key);
  assertErrorBody(t, other, 422, 'SVC-SYS-2001');
  t.is(other.headers.get('location'), null);
  // sent at once, one key is one upload
  const together = { 'idempotency-key': randomUUID() };
  const answers = await Promise.all(Array.from({ length: 4 }, () => createUpload(token, crProcessId, 100, {}, undefined, together)));
  t.deepEqual(
    answers.map((answer) => answer.status),
    [201, 201, 201, 201],
  );
  t.is(new Set(answers.map((answer) => answer.headers.get('location'))).size, 1);
});

/**
 * Resumable uploads by tus 1.0.0 at /api/dms-file/tus (docs/interface.md#files "Resumable uploads",
 * docs/adr/0102-what-an-unfinished-resumable-upload.md), through the real gateway: creation, creation with
 * upload, an upload cut off at 90 % and resumed from the server's offset, termination, expiry, the
 * tenant rule, the limits and the same finalisation as the multipart upload (type, audit,
 * duplicate), and the tus protocol refusals with the platform's error body.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import test from 'ava';
import { Upload } from '@tus/utils';
import { HashingFileStore } from '@platform/dms-svc/tus/hashing-file-store.ts';
import { adminSession, create, createAccount, freshTenant, userWithRoles } from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { backdateTusUpload, tusNames } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';
import { logLinesWith } from './helpers/platform-log.ts';
import { createUpload, metadataOf, patch, tus, TUS } from './helpers/tus.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const admin = async () => (await adminSession()).token;
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A PATCH whose body is cut off after `sent` of its `bytes` (the connection destroyed mid-body). */
function cutPatch(token: string, location: string, bytes: Uint8Array, sent: number): Promise<void> {
  const url = new URL(`${platform.url}${location}`);
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        authorization: `Bearer ${token}`,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(bytes.subarray(0, sent), () => setTimeout(() => req.destroy(), 300));
  });
}

async function filesOf(crProcessId: number): Promise<any[]> {
  const res = await api('POST', '/api/dms-file/list', { token: await admin(), body: { size: 100, filter: { crProcessId } } });
  return res.body.content;
}

const idOf = (location: string) => location.split('/').pop() ?? '';

test('creation answers 201 with a relative Location under /api/dms-file/tus, Upload-Expires and Tus-Resumable; HEAD tells offset 0', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const created = await createUpload(token, crProcessId, 10);
  t.is(created.status, 201, created.text);
  const location = created.headers.get('location') ?? '';
  t.regex(location, /^\/api\/dms-file\/tus\/[0-9a-f]{32}$/);
  t.is(created.headers.get('tus-resumable'), '1.0.0');
  t.true(Date.parse(created.headers.get('upload-expires') ?? '') > Date.now() + 23 * 3600_000, 'expires 24 h after creation');
  t.is(created.headers.get('access-control-allow-origin'), null, "tus's own CORS header does not reach the client");
  const head = await tus('HEAD', location, token);
  t.is(head.status, 200);
  t.is(head.headers.get('upload-offset'), '0');
  t.is(head.headers.get('upload-length'), '10');
  t.is(head.headers.get('cache-control'), 'no-store');
  t.false((head.headers.get('upload-metadata') ?? '').includes('dms-owner'), 'the service keys are not shown');
  const options = await tus('OPTIONS', TUS, token);
  t.is(options.status, 204);
  t.is(options.headers.get('tus-version'), '1.0.0');
  t.is(options.headers.get('tus-extension'), 'creation,creation-with-upload,termination,expiration');
});

test('creation with upload of the whole file answers 201 and Upload-File-Id names the stored dms-file, HEAD tells it too', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const content = Buffer.from('all in one request');
  const created = await createUpload(token, crProcessId, content.length, { description: 'one shot' }, content);
  t.is(created.status, 201, created.text);
  const fileId = created.headers.get('upload-file-id');
  t.regex(fileId ?? '', /^\d+$/);
  t.is(created.headers.get('upload-offset'), String(content.length));
  const record = await api('GET', `/api/dms-file/${fileId}`, { token });
  t.like(record.body, { crProcessId, originalFileName: 'resumed.bin', fileSize: content.length, checksum: sha256(content), description: 'one shot' });
  const head = await tus('HEAD', created.headers.get('location') ?? '', token);
  t.is(head.status, 200);
  t.is(head.headers.get('upload-file-id'), fileId);
  t.is(head.headers.get('upload-offset'), String(content.length));
});

test('an empty file (Upload-Length 0) is complete at its creation and stored', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const created = await createUpload(token, crProcessId, 0);
  t.is(created.status, 201, created.text);
  const record = await api('GET', `/api/dms-file/${created.headers.get('upload-file-id')}`, { token });
  t.like(record.body, { fileSize: 0, checksum: sha256(new Uint8Array(0)), mimeType: 'application/octet-stream' });
});

test('an upload of 4 MiB cut off at 90 % resumes with HEAD and PATCH from the server offset; the download matches by SHA-256', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const content = randomBytes(4 * 1024 * 1024);
  const created = await createUpload(token, crProcessId, content.length);
  const location = created.headers.get('location') ?? '';
  await cutPatch(token, location, content, Math.floor(content.length * 0.9));
  // the server settles what it received: its offset, at most 90 %
  let offset = -1;
  for (let i = 0; i < 50; i++) {
    const head = await tus('HEAD', location, token);
    if (head.status === 200) {
      offset = Number(head.headers.get('upload-offset'));
      if (offset > 0) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.true(offset > 0 && offset <= content.length * 0.9, `offset ${offset}`);
  const wrong = await patch(token, location, offset + 1, content.subarray(offset + 1));
  assertErrorBody(t, wrong, 409, 'SVC-SYS-4002');
  // an empty PATCH after the refused one: the refused request's body is not read for it
  const empty = await patch(token, location, offset, new Uint8Array(0));
  t.is(empty.status, 204, empty.text);
  t.is(empty.headers.get('upload-offset'), String(offset));
  const rest = await patch(token, location, offset, content.subarray(offset));
  t.is(rest.status, 204, rest.text);
  t.is(rest.headers.get('upload-offset'), String(content.length));
  const fileId = rest.headers.get('upload-file-id');
  const record = await api('GET', `/api/dms-file/${fileId}`, { token });
  t.is(record.body.checksum, sha256(content));
  const url = await api('GET', `/api/dms-file/${fileId}/download-url`, { token });
  const got = Buffer.from(await (await fetch(`${platform.url}${url.body.url}`)).arrayBuffer());
  t.is(sha256(got), sha256(content));
  t.false((await tusNames()).includes(idOf(location)), 'the bytes left the upload folder');
  const audit = await api('POST', '/api/dms-audit-log/list', { token, body: { size: 10, filter: { crProcessId, action: 'UPLOAD' } } });
  t.is(audit.body.content.length, 1);
  t.like(audit.body.content[0], { fileId: Number(fileId) });
});

test('a PATCH resumed in a process without the hash state hashes the stored prefix again (HashingFileStore on a real directory)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tus-store-'));
  try {
    const content = randomBytes(300_000);
    const first = new HashingFileStore({ directory: dir });
    await first.create(new Upload({ id: 'a'.repeat(32), size: content.length, offset: 0 }));
    const half = await first.write(Readable.from([content.subarray(0, 120_000)]), 'a'.repeat(32), 0);
    t.is(half, 120_000);
    // another replica, or this one after a restart: no state in memory
    const second = new HashingFileStore({ directory: dir });
    const end = await second.write(Readable.from([content.subarray(half)]), 'a'.repeat(32), half);
    t.is(end, content.length);
    t.is(await second.checksumOf('a'.repeat(32), content.length), sha256(content));
    t.deepEqual(second.rehashed, { times: 1, bytes: 120_000 });
    // the one with the state goes on from memory when its offset is the file's
    const third = new HashingFileStore({ directory: dir });
    await third.create(new Upload({ id: 'b'.repeat(32), size: 6, offset: 0 }));
    await third.write(Readable.from([Buffer.from('abc')]), 'b'.repeat(32), 0);
    await third.write(Readable.from([Buffer.from('def')]), 'b'.repeat(32), 3);
    t.is(await third.checksumOf('b'.repeat(32), 6), sha256(Buffer.from('abcdef')));
    t.deepEqual(third.rehashed, { times: 0, bytes: 0 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a write whose request was closed before it began fails at once, without waiting on bytes that never come (HashingFileStore)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tus-store-'));
  try {
    const store = new HashingFileStore({ directory: dir });
    const id = 'c'.repeat(32);
    await store.create(new Upload({ id, size: 10, offset: 0 }));
    // its client went away while tus waited for the upload's lock
    const request = new PassThrough();
    request.destroy();
    store.readFrom(id, request);
    const timedOut = new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 5_000));
    const outcome = await Promise.race([
      store.write(Readable.from([]), id, 0).then(
        () => 'written',
        () => 'refused',
      ),
      timedOut,
    ]);
    t.is(outcome, 'refused');
    t.is((await store.getUpload(id)).offset, 0, 'nothing was written');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('termination removes an unfinished upload at once: its bytes and state, then 404', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const created = await createUpload(token, crProcessId, 100, {}, Buffer.alloc(40, 1));
  const location = created.headers.get('location') ?? '';
  t.true((await tusNames()).includes(idOf(location)));
  const removed = await tus('DELETE', location, token);
  t.is(removed.status, 204, removed.text);
  t.false((await tusNames()).some((name) => name.startsWith(idOf(location))));
  t.is((await tus('HEAD', location, token)).status, 404);
});

test('an expired upload is swept by the periodic job: bytes and state gone, HEAD 404', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const created = await createUpload(token, crProcessId, 100, {}, Buffer.alloc(10, 2));
  const id = idOf(created.headers.get('location') ?? '');
  t.true((await tusNames()).includes(`${id}`), 'its bytes are kept');
  // created two days ago: past DMS_TUS_EXPIRY_SECONDS (24 h); the suite sweeps every second
  await backdateTusUpload(id, new Date(Date.now() - 48 * 3600_000));
  for (let i = 0; i < 50 && (await tusNames()).some((name) => name.startsWith(id)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  t.false((await tusNames()).some((name) => name.startsWith(id)));
  t.is((await tus('HEAD', `${TUS}/${id}`, token)).status, 404);
  // swept by dms-svc's worker, from the job queue, once (docs/adr/0143-background-work-on-a-postgresql-queue.md)
  const removalsOf = async () => (await logLinesWith(id)).filter((line) => line.entry.msg === 'expired resumable upload removed');
  // the line reaches the log file through the launcher, a moment after the removal
  for (let i = 0; i < 50 && (await removalsOf()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const removals = await removalsOf();
  t.deepEqual(
    removals.map((line) => [line.source, line.entry.job]),
    [['dms-worker', 'dms.tus-sweep']],
  );
});

test("another tenant's user gets 404 for HEAD, PATCH and DELETE of an upload, never its offset", async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const created = await createUpload(token, crProcessId, 100, {}, Buffer.alloc(10, 3));
  const location = created.headers.get('location') ?? '';
  const other = await userWithRoles(await createAccount(), ['dms-file:write', 'dms-file:read']);
  for (const [method, headers, body] of [
    ['HEAD', {}, undefined],
    ['PATCH', { 'upload-offset': '10', 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(5)],
    ['DELETE', {}, undefined],
  ] as const) {
    const res = await tus(method, location, other.token, headers, body);
    t.is(res.status, 404, `${method} ${res.text}`);
    t.is(res.headers.get('upload-offset'), null);
  }
  const mine = await tus('HEAD', location, token);
  t.is(mine.headers.get('upload-offset'), '10', 'the upload is untouched');
  // a user names only its own tenant
  assertErrorBody(t, await createUpload(other.token, crProcessId, 10), 403, 'SVC-SYS-1003');
});

test('creation over the tenant maxFileSize or DMS_MAX_UPLOAD_BYTES is 413 SVC-SYS-3001, over the remaining quota 413 SVC-SYS-3007; nothing kept', async (t) => {
  const token = await admin();
  const crProcessId = freshTenant();
  await create('dms-account-config', { crProcessId, maxFileSize: 1000, storageQuotaBytes: 1500 });
  const tooLarge = await createUpload(token, crProcessId, 1001);
  assertErrorBody(t, tooLarge, 413, 'SVC-SYS-3001');
  t.is(tooLarge.headers.get('location'), null, 'no upload was made');
  assertErrorBody(t, await createUpload(token, crProcessId, 2 ** 40), 413, 'SVC-SYS-3001');
  const first = await createUpload(token, crProcessId, 900, {}, Buffer.alloc(900, 4));
  t.regex(first.headers.get('upload-file-id') ?? '', /^\d+$/, first.text);
  const overQuota = await createUpload(token, crProcessId, 700);
  assertErrorBody(t, overQuota, 413, 'SVC-SYS-3007');
  t.is(overQuota.headers.get('location'), null, 'no upload was made');
  // bytes beyond Upload-Length are refused
  const small = await createUpload(token, crProcessId, 10);
  assertErrorBody(t, await patch(token, small.headers.get('location') ?? '', 0, Buffer.alloc(20)), 413, 'SVC-SYS-3001');
  // and so are they in a chunked body, which names no length beforehand: what fits is kept, no more
  const chunked = await createUpload(token, crProcessId, 10);
  const location = chunked.headers.get('location') ?? '';
  const streamed = await tus('PATCH', location, token, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, undefined, [
    Buffer.alloc(6),
    Buffer.alloc(14),
  ]);
  assertErrorBody(t, streamed, 413, 'SVC-SYS-3001');
  const head = await tus('HEAD', location, token);
  t.true(Number(head.headers.get('upload-offset')) <= 10, `offset ${head.headers.get('upload-offset')}`);
  t.is(head.headers.get('upload-file-id'), null);
});

test('a sniffed type outside allowedMimeTypes is 415 SVC-SYS-3002 at completion: no row, no bytes, no upload left', async (t) => {
  const token = await admin();
  const crProcessId = freshTenant();
  await create('dms-account-config', { crProcessId, allowedMimeTypes: 'application/pdf' });
  const created = await createUpload(token, crProcessId, PNG.length, { filetype: 'application/pdf' });
  const location = created.headers.get('location') ?? '';
  const done = await patch(token, location, 0, PNG);
  assertErrorBody(t, done, 415, 'SVC-SYS-3002');
  t.deepEqual(await filesOf(crProcessId), []);
  t.false((await tusNames()).some((name) => name.startsWith(idOf(location))));
  t.is((await tus('HEAD', location, token)).status, 404);
});

test('the same bytes twice: the second upload names the first in Upload-Duplicate-Of', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const content = randomBytes(1000);
  const first = await createUpload(token, crProcessId, content.length, {}, content);
  const firstFile = first.headers.get('upload-file-id');
  t.regex(firstFile ?? '', /^\d+$/, first.text);
  t.is(first.headers.get('upload-duplicate-of'), null, 'the first has no duplicate');
  const second = await createUpload(token, crProcessId, content.length, {}, content);
  t.regex(second.headers.get('upload-file-id') ?? '', /^\d+$/, second.text);
  t.not(second.headers.get('upload-file-id'), firstFile);
  t.is(second.headers.get('upload-duplicate-of'), firstFile);
});

test('tus protocol refusals carry the error body: no Tus-Resumable 412, wrong Content-Type 415, bad headers and metadata 400', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const created = await createUpload(token, crProcessId, 100);
  const location = created.headers.get('location') ?? '';
  const missing = await fetch(`${platform.url}${location}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
  t.is(missing.status, 412);
  t.is(missing.headers.get('tus-version'), '1.0.0');
  const noVersion = await fetch(`${platform.url}${TUS}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'upload-length': '1' } });
  const text = await noVersion.text();
  assertErrorBody(t, { status: noVersion.status, text, body: JSON.parse(text) }, 412, 'SVC-SYS-2001');
  const wrongType = await patch(token, location, 0, Buffer.alloc(3), { 'content-type': 'text/plain' });
  assertErrorBody(t, wrongType, 415, 'SVC-SYS-2001');
  t.is(wrongType.headers.get('tus-resumable'), '1.0.0', 'a refusal carries Tus-Resumable too');
  assertInvalid(t, await patch(token, location, 0, Buffer.alloc(3), { 'upload-offset': '-1' }), 'Upload-Offset');
  assertInvalid(t, await patch(token, location, 0, Buffer.alloc(3), { 'upload-offset': 'x' }), 'Upload-Offset');
  assertInvalid(t, await createUpload(token, crProcessId, 10, { colour: 'blue' }), 'colour');
  assertInvalid(t, await tus('POST', TUS, token, { 'upload-length': '10', 'upload-metadata': 'filename !!!notbase64' }), 'Upload-Metadata');
  assertInvalid(
    t,
    await tus('POST', TUS, token, { 'upload-length': '10', 'upload-metadata': `filename ${b64('a\u0000b')},crProcessId ${b64(String(crProcessId))}` }),
    'originalFileName',
  );
  assertInvalid(
    t,
    await tus('POST', TUS, token, { 'upload-length': '-5', 'upload-metadata': metadataOf({ filename: 'x', crProcessId: String(crProcessId) }) }),
    'Upload-Length',
  );
  assertInvalid(
    t,
    await tus('POST', TUS, token, {
      'upload-length': '99999999999999999999',
      'upload-metadata': metadataOf({ filename: 'x', crProcessId: String(crProcessId) }),
    }),
    'Upload-Length',
  );
  assertInvalid(
    t,
    await tus('POST', TUS, token, { 'upload-defer-length': '1', 'upload-metadata': metadataOf({ filename: 'x', crProcessId: String(crProcessId) }) }),
    'Upload-Defer-Length',
  );
  assertErrorBody(t, await tus('DELETE', `${TUS}/not-an-id`, token), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await tus('DELETE', location, 'not-a-token'), 401, 'SVC-SYS-1001');
});

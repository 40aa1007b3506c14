/**
 * Resumable uploads across dms-svc replicas (docs/adr/0094-resumable-uploads-across-replicas.md): a
 * dms-svc and a gateway of their own beside the suite's platform, sharing its database and storage,
 * as replicas share the files volume. An upload begun on one replica is finished on the other,
 * which has no hash state for it and hashes the stored prefix again; and while one replica writes
 * an upload, the other cannot (the upload's lease row in dms.dms_tus_lock, tus/lease-locker.ts):
 * 409 SVC-SYS-4002, and a lock whose holder died frees the upload once its lease lapses. With files in a bucket
 * (TEST_DMS_STORAGE=s3) the replica's DMS_STORAGE_DIR does not exist: the uploads in progress are in the
 * bucket (docs/adr/0145-resumable-uploads-in-the-bucket.md), and no folder is shared.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { startPlatform, type Platform } from '../scripts/lib/processes.ts';
import { adminSession, create, createAccount } from './helpers/factories.ts';
import { sql } from './helpers/db.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { filesOnS3, storageDir, tusNames } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

let replica: Platform;
/** The replica's own folder when the files are in a bucket; else it shares the suite's. */
let ownFolder: string | undefined;

test.before(async () => {
  // a folder that is never made: the replica has no use for one
  if (filesOnS3()) ownFolder = join(await mkdtemp(join(tmpdir(), 'dms-replica-')), 'files');
  replica = await startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0', DMS_GRPC_ADDR: '', DMS_HTTP_ADDR: '', ...(ownFolder ? { DMS_STORAGE_DIR: ownFolder } : {}) },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB },
    ports: 'free',
    log: suiteLog(),
  });
});

test.after.always(async () => {
  await replica?.stop();
  if (ownFolder) await rm(dirname(ownFolder), { recursive: true, force: true });
});

/** Every name under a folder, its subfolders' too (a folder that is not there has none). */
async function namesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true }).catch(() => [] as string[]);
  return entries.map(String);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const b64 = (text: string) => Buffer.from(text).toString('base64');

async function tus(base: string, method: string, path: string, token: string, headers: Record<string, string> = {}, body?: Uint8Array) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, ...headers },
    ...(body ? { body } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
  };
}

async function created(token: string, length: number): Promise<string> {
  const { crProcessId } = await createAccount();
  const res = await tus(platform.url, 'POST', '/api/dms-file/tus', token, {
    'upload-length': String(length),
    'upload-metadata': `filename ${b64('replicas.bin')},crProcessId ${b64(String(crProcessId))}`,
  });
  if (res.status !== 201) throw new Error(`creation: ${res.status} ${res.text}`);
  return res.headers.get('location') ?? '';
}

const patchHeaders = (offset: number) => ({ 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' });

test('an upload begun on one replica is finished on another, which hashes the stored prefix: the checksum is the whole file', async (t) => {
  const { token } = await adminSession();
  const content = randomBytes(3 * 1024 * 1024 + 17);
  const location = await created(token, content.length);
  const half = 1024 * 1024 + 5;
  const first = await tus(platform.url, 'PATCH', location, token, patchHeaders(0), content.subarray(0, half));
  t.is(first.headers.get('upload-offset'), String(half), first.text);
  const head = await tus(replica.url, 'HEAD', location, token);
  t.is(head.headers.get('upload-offset'), String(half), 'the other replica sees the same upload');
  const rest = await tus(replica.url, 'PATCH', location, token, patchHeaders(half), content.subarray(half));
  t.is(rest.status, 204, rest.text);
  const record = await api('GET', `/api/dms-file/${rest.headers.get('upload-file-id')}`, { token });
  t.is(record.body.checksum, sha256(content));
});

test('while one replica writes an upload, a PATCH of it on the other is 409 SVC-SYS-4002 (its lock), and resumes once it is free', async (t) => {
  const { token } = await adminSession();
  const content = randomBytes(64 * 1024);
  const location = await created(token, content.length);
  // a PATCH on the suite's replica that sends part of its body and then waits
  const url = new URL(`${platform.url}${location}`);
  const held = request(url, {
    method: 'PATCH',
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, ...patchHeaders(0), 'content-length': String(content.length) },
  });
  held.on('error', () => undefined);
  held.write(content.subarray(0, 1000));
  // the held PATCH owns the upload's lock (tus/lease-locker.ts) once its live lease row is there
  const locked = async () =>
    (await sql<{ held: number }>('select count(*)::int as held from dms.dms_tus_lock where id = $1 and expires_at > now()', [location.split('/').pop()]))[0]
      ?.held === 1;
  for (let i = 0; i < 100 && !(await locked()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  t.true(await locked(), 'the first PATCH holds the lock');
  const blocked = await tus(replica.url, 'PATCH', location, token, patchHeaders(0), content);
  assertErrorBody(t, blocked, 409, 'SVC-SYS-4002');
  held.destroy();
  let offset = -1;
  for (let i = 0; i < 50; i++) {
    const head = await tus(replica.url, 'HEAD', location, token);
    if (head.status === 200) {
      offset = Number(head.headers.get('upload-offset'));
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.true(offset >= 0 && offset <= 1000, `offset ${offset}`);
  const rest = await tus(replica.url, 'PATCH', location, token, patchHeaders(offset), content.subarray(offset));
  t.is(rest.status, 204, rest.text);
  const record = await api('GET', `/api/dms-file/${rest.headers.get('upload-file-id')}`, { token });
  t.is(record.body.checksum, sha256(content));
});

test('a lock whose holder died (its lease row left behind) holds the upload until its lease lapses, then frees it', async (t) => {
  const { token } = await adminSession();
  const content = randomBytes(2000);
  const location = await created(token, content.length);
  const id = location.split('/').pop();
  // what a dms-svc that died while writing leaves: its row, leased ahead
  await sql("insert into dms.dms_tus_lock (id, holder, expires_at) values ($1, gen_random_uuid(), now() + interval '1 hour')", [id]);
  assertErrorBody(t, await tus(replica.url, 'PATCH', location, token, patchHeaders(0), content), 409, 'SVC-SYS-4002');
  // its lease lapsed (the bound is TUS_LEASE_MS, 15 s, after its last renewal): the upload is free
  await sql("update dms.dms_tus_lock set expires_at = now() - interval '1 second' where id = $1", [id]);
  const written = await tus(replica.url, 'PATCH', location, token, patchHeaders(0), content);
  t.is(written.status, 204, written.text);
  t.deepEqual(await sql('select id from dms.dms_tus_lock where id = $1', [id]), [], 'the writer deleted the row it took over');
});

(filesOnS3() ? test : test.skip)(
  'with files in a bucket, an upload in progress is in the bucket, not in a folder: a replica without any folder resumes it',
  async (t) => {
    const { token } = await adminSession();
    // a first write shorter than the type check's 4,100 bytes, then one past a part (8 MiB) with a tail shorter than one
    const content = randomBytes(20 * 1024 * 1024 + 123);
    const split = 9 * 1024 * 1024 + 50;
    const location = await created(token, content.length);
    const id = location.split('/').pop() ?? '';
    const first = await tus(platform.url, 'PATCH', location, token, patchHeaders(0), content.subarray(0, 1000));
    t.is(first.headers.get('upload-offset'), '1000', first.text);
    const second = await tus(platform.url, 'PATCH', location, token, patchHeaders(1000), content.subarray(1000, split));
    t.is(second.headers.get('upload-offset'), String(split), second.text);
    const names = await tusNames();
    t.true(names.includes(id), `the multipart upload is in the bucket: ${names.join(' ')}`);
    t.true(names.includes(`${id}.info`), 'and its record');
    t.true(names.includes(`${id}.part`), 'and its tail shorter than a part');
    const folders = [...(await namesUnder(storageDir())), ...(await namesUnder(ownFolder ?? ''))];
    t.false(
      folders.some((name) => name.includes(id)),
      `no folder holds a byte or a record of it: ${folders.join(' ')}`,
    );
    t.notDeepEqual(ownFolder, storageDir(), "the replica does not share the suite's folder");
    const head = await tus(replica.url, 'HEAD', location, token);
    t.is(head.headers.get('upload-offset'), String(split), 'the other replica sees the same upload, from the bucket');
    const rest = await tus(replica.url, 'PATCH', location, token, patchHeaders(split), content.subarray(split));
    t.is(rest.status, 204, rest.text);
    const record = await api('GET', `/api/dms-file/${rest.headers.get('upload-file-id')}`, { token });
    t.is(record.body.checksum, sha256(content), 'hashed by reading the assembled object back: the whole file');
    const download = await api('GET', `/api/dms-file/${rest.headers.get('upload-file-id')}/download-url`, { token });
    const got = Buffer.from(await (await fetch(`${platform.url}${download.body.url}`)).arrayBuffer());
    t.is(sha256(got), sha256(content), 'the stored file is the upload');
    const after = await tusNames();
    t.false(existsSync(ownFolder ?? ''), "the replica's DMS_STORAGE_DIR was never made: it keeps nothing on a folder");
    t.deepEqual(
      after.filter((name) => name.startsWith(id)),
      [`${id}.info`],
      'the multipart upload completed, its object moved under the stored name, its tail and first bytes removed; the record stays',
    );
  },
);

(filesOnS3() ? test : test.skip)(
  'with files in a bucket, the type check at the first 4,100 bytes judges them on the replica that gets the crossing write',
  async (t) => {
    const { token } = await adminSession();
    const { crProcessId } = await createAccount();
    await create('dms-account-config', { crProcessId, allowedMimeTypes: 'application/pdf' });
    // a PNG's signature in the first bytes, sent to one replica; the rest of the window to the other
    const content = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(20_000)]);
    const res = await tus(platform.url, 'POST', '/api/dms-file/tus', token, {
      'upload-length': String(content.length),
      'upload-metadata': `filename ${b64('image.pdf')},filetype ${b64('application/pdf')},crProcessId ${b64(String(crProcessId))}`,
    });
    t.is(res.status, 201, res.text);
    const location = res.headers.get('location') ?? '';
    const some = await tus(platform.url, 'PATCH', location, token, patchHeaders(0), content.subarray(0, 2000));
    t.is(some.status, 204, some.text);
    const refused = await tus(replica.url, 'PATCH', location, token, patchHeaders(2000), content.subarray(2000, 10_000));
    assertErrorBody(t, refused, 415, 'SVC-SYS-3002');
    const id = location.split('/').pop() ?? '';
    t.deepEqual(
      (await tusNames()).filter((name) => name.startsWith(id)),
      [],
      'the upload is removed from the bucket',
    );
  },
);

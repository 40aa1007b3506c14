/**
 * Files on S3-compatible object storage (DMS_STORAGE=s3, docs/adr/0144-files-on-s3-compatible-storage.md):
 * a dms-svc and a gateway of their own beside the suite's platform (same database), their files in a
 * bucket of a real S3 server started here (OpenStack Swift with s3api: helpers/swift.ts). The walk
 * of the file tests on that store: uploads (one request, a multipart upload of several parts, an
 * empty file, a resumable one) read back byte for byte by SHA-256, ranges, the audit rows of
 * downloads, duplicates, the quota (a refused upload leaves no object), soft delete, retention's
 * purge, a share link's exact download count, the sweep of orphaned objects and unfinished
 * multipart uploads, an upload cut off midway, and the virus scan (clamd: helpers/clamd.ts), which
 * reads each upload back from the bucket.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import test from 'ava';
import { credentials, Metadata } from '@grpc/grpc-js';
import { CreateMultipartUploadCommand, HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { TokenService } from '@platform/kit/auth/jwt.ts';
import { DmsRetentionPolicyServiceClient } from '@platform/kit/gen/platform/dms/v1/dms_retention_policy.ts';
import { startPlatform, type Platform } from '../scripts/lib/processes.ts';
import { adminSession, create, createAccount, freshTenant } from './helpers/factories.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { upload } from './helpers/files.ts';
import { sql } from './helpers/db.ts';
import { api, platform } from './helpers/platform.ts';
import { settledDownloadCount } from './helpers/share-downloads.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';
import { startSwift, type TestSwift } from './helpers/swift.ts';
import { startClamd, TEST_MARKER, TEST_SIGNATURE_FOUND, type TestClamd } from './helpers/clamd.ts';

const tokens = new TokenService(platform.jwtSecret);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** The S3 dms-svc's sweep grace: leftovers older than this are removed. */
const GRACE_SECONDS = 6;

let swift: TestSwift;
let clamd: TestClamd;
let s3: Platform;

test.before(async () => {
  [swift, clamd] = await Promise.all([startSwift(), startClamd()]);
  s3 = await startPlatform({
    env: {
      ...platform.env,
      ...swift.env,
      DMS_STORAGE_SWEEP_GRACE_SECONDS: String(GRACE_SECONDS),
      // every upload is scanned, read back from the bucket
      CLAMD_ADDRESS: clamd.tcpAddress,
      GATEWAY_PORT: '0',
      DMS_GRPC_ADDR: '',
      DMS_HTTP_ADDR: '',
    },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB },
    ports: 'free',
    log: suiteLog(),
  });
});

test.after.always(async () => {
  await s3?.stop();
  await Promise.all([swift?.stop(), clamd?.stop()]);
});

/** An upload through the S3 platform, which must succeed. */
async function uploaded(token: string, crProcessId: number, content: Uint8Array | string, fileName = 'object.bin') {
  const res = await upload({ token, crProcessId, content, fileName, baseUrl: s3.url });
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${res.text}`);
  const url = await api('GET', `/api/dms-file/${res.body.fileId}/download-url`, { token, baseUrl: s3.url });
  return { ...(res.body as { fileId: number; storedFileName: string; duplicateOfFileId?: number }), url: url.body.url as string };
}

async function download(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${s3.url}${url}`, { method, headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The object's size in the bucket, or undefined when there is none. */
async function objectSize(key: string): Promise<number | undefined> {
  try {
    return Number((await swift.client.send(new HeadObjectCommand({ Bucket: swift.bucket, Key: key }))).ContentLength);
  } catch (error) {
    if ((error as { name?: string }).name === 'NotFound') return undefined;
    throw error;
  }
}

async function objectKeys(): Promise<string[]> {
  const page = await swift.client.send(new ListObjectsV2Command({ Bucket: swift.bucket }));
  return (page.Contents ?? []).map((object) => object.Key ?? '');
}

async function unfinishedUploads(): Promise<string[]> {
  const page = await swift.client.send(new ListMultipartUploadsCommand({ Bucket: swift.bucket }));
  return (page.Uploads ?? []).map((upload) => upload.UploadId ?? '');
}

function retention(method: 'runDmsRetention' | 'sweepDmsStorage', body: object): Promise<any> {
  const client = new DmsRetentionPolicyServiceClient(s3.env.DMS_GRPC_ADDR ?? '', credentials.createInsecure());
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${tokens.internalToken('test')}`);
  return new Promise((resolve, reject) =>
    (client[method] as (b: object, m: Metadata, cb: (e: Error | null, r: unknown) => void) => void)(body, metadata, (error, response) => {
      client.close();
      if (error || !response) reject(error ?? new Error('no response'));
      else resolve(response);
    }),
  );
}

const auditRows = (fileId: number, action: string) =>
  sql<{ details: string }>('select details from dms.dms_audit_log where file_id = $1 and action = $2 order by id', [fileId, action]);

test('on S3: a small file, a multipart upload of several parts and an empty file are objects under their stored names and read back by SHA-256', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  for (const content of [randomBytes(100_003), randomBytes(8 * 1024 * 1024 * 2 + 12_345), new Uint8Array(0)]) {
    const file = await uploaded(token, crProcessId, content);
    t.is(await objectSize(file.storedFileName), content.length, 'the object is the file');
    const record = await api('GET', `/api/dms-file/${file.fileId}`, { token });
    t.is(record.body.checksum, sha256(content));
    t.is(record.body.fileSize, content.length);
    const got = await download(file.url);
    t.is(got.status, 200);
    t.is(sha256(got.bytes), sha256(content));
    t.is(got.headers.get('etag'), `"${sha256(content)}"`);
    t.is(got.headers.get('content-length'), String(content.length));
  }
});

test('on S3: a range is 206 with its bytes, a suffix too, past the end 416; each GET of bytes is one DOWNLOAD audit row, HEAD and 416 none', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const content = randomBytes(300_000);
  const file = await uploaded(token, crProcessId, content);
  const part = await download(file.url, { range: 'bytes=1000-200999' });
  t.is(part.status, 206);
  t.is(part.headers.get('content-range'), `bytes 1000-200999/${content.length}`);
  t.deepEqual(part.bytes, content.subarray(1000, 201_000));
  const suffix = await download(file.url, { range: 'bytes=-10' });
  t.deepEqual(suffix.bytes, content.subarray(content.length - 10));
  const past = await download(file.url, { range: `bytes=${content.length}-` });
  t.is(past.status, 416);
  t.is(past.headers.get('content-range'), `bytes */${content.length}`);
  const head = await download(file.url, {}, 'HEAD');
  t.is(head.status, 200);
  t.is(head.headers.get('content-length'), String(content.length));
  t.is((await auditRows(file.fileId, 'DOWNLOAD')).length, 2, 'the two GETs that sent bytes');
});

// serial, as every test that compares the bucket before and after: ava runs them before the others, one at a time
test.serial(
  'on S3: the same bytes again name the first file as duplicateOfFileId; an upload over the quota is 413 SVC-SYS-3007 and leaves no object',
  async (t) => {
    const { token } = await adminSession();
    const { crProcessId } = await createAccount();
    const content = randomBytes(5000);
    const first = await uploaded(token, crProcessId, content);
    const second = await uploaded(token, crProcessId, content);
    t.is(second.duplicateOfFileId, first.fileId);
    t.not(second.storedFileName, first.storedFileName);

    const limited = freshTenant();
    await create('dms-account-config', { crProcessId: limited, storageQuotaBytes: 1000 });
    const before = await objectKeys();
    const refused = await upload({ token, crProcessId: limited, content: randomBytes(1500), baseUrl: s3.url });
    assertErrorBody(t, refused, 413, 'SVC-SYS-3007');
    t.deepEqual(
      (await objectKeys()).filter((key) => !before.includes(key)),
      [],
      'the refused upload is not in the bucket',
    );
    t.deepEqual(await unfinishedUploads(), []);
  },
);

test("on S3: a soft-deleted file is gone to downloads but keeps its object; retention's purge removes the object after the row", async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  await create('dms-account-config', { crProcessId, purgeAfterDays: 7 });
  const file = await uploaded(token, crProcessId, 'to be purged');
  t.is((await api('DELETE', `/api/dms-file/${file.fileId}`, { token })).status, 204);
  t.is((await download(file.url)).status, 404);
  t.is(await objectSize(file.storedFileName), 'to be purged'.length, 'soft delete keeps the bytes');
  await sql(`update dms.dms_file set updated_at = now() - interval '8 days' where id = $1`, [file.fileId]);
  const counts = await retention('runDmsRetention', { crProcessId });
  t.like(counts, { purged: 1 });
  t.is(await objectSize(file.storedFileName), undefined, 'the object went with the row');
});

test('on S3: a share link with maxDownloads 2 serves its file twice, through the relay, and counts each download exactly', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const content = randomBytes(64 * 1024);
  const file = await uploaded(token, crProcessId, content);
  const link = await create('dms-share-link', { crProcessId, fileId: file.fileId, maxDownloads: 2 }, token);
  for (const expected of [1, 2]) {
    const got = await download(link.url);
    t.is(got.status, 200);
    t.is(sha256(got.bytes), sha256(content));
    t.is(await settledDownloadCount(link.id), expected);
  }
  t.not((await download(link.url)).status, 200, 'a third download is refused');
  t.is(await settledDownloadCount(link.id), 2);
});

test('on S3: the sweep removes objects no row names and unfinished multipart uploads once older than the grace; a file with a row stays', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const kept = await uploaded(token, crProcessId, 'kept by its row');
  const orphan = randomUUID();
  await swift.client.send(new PutObjectCommand({ Bucket: swift.bucket, Key: orphan, Body: 'no row names me' }));
  const foreign = `not-the-storage-${randomUUID()}`;
  await swift.client.send(new PutObjectCommand({ Bucket: swift.bucket, Key: foreign, Body: 'not mine' }));
  const unfinished = await swift.client.send(new CreateMultipartUploadCommand({ Bucket: swift.bucket, Key: randomUUID() }));
  const young = await retention('sweepDmsStorage', {});
  t.is(await objectSize(orphan), 'no row names me'.length, `a young orphan stays (${JSON.stringify(young)})`);
  await new Promise((wait) => setTimeout(wait, (GRACE_SECONDS + 1.5) * 1000));
  const swept = await retention('sweepDmsStorage', {});
  t.true(swept.orphansRemoved >= 1, JSON.stringify(swept));
  t.true(swept.temporariesRemoved >= 1, JSON.stringify(swept));
  t.is(await objectSize(orphan), undefined);
  t.false((await unfinishedUploads()).includes(unfinished.UploadId ?? ''));
  t.is(await objectSize(kept.storedFileName), 'kept by its row'.length);
  t.is(await objectSize(foreign), 'not mine'.length, 'a key that is not a stored name is left alone');
});

test.serial('on S3: an upload cut off midway keeps no object and no unfinished multipart upload', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const before = await objectKeys();
  const boundary = 'cutoff-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="crProcessId"\r\n\r\n${crProcessId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  await new Promise<void>((resolve) => {
    const req = request(`${s3.url}/api/dms-file/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(64 * 1024 * 1024) },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(head);
    // more than two parts' worth, so that parts are in the bucket when the client goes
    const chunk = randomBytes(1024 * 1024);
    let sent = 0;
    const more = () => {
      while (sent < 20) {
        sent++;
        if (!req.write(chunk)) return void req.once('drain', more);
      }
      setTimeout(() => req.destroy(), 300);
    };
    more();
  });
  // the service notices the client gone, aborts the multipart upload and deletes what it made
  let left: { objects: string[]; uploads: string[] } = { objects: [], uploads: [] };
  for (let i = 0; i < 50; i++) {
    left = { objects: (await objectKeys()).filter((key) => !before.includes(key)), uploads: await unfinishedUploads() };
    if (left.objects.length === 0 && left.uploads.length === 0) break;
    await new Promise((wait) => setTimeout(wait, 100));
  }
  t.deepEqual(left, { objects: [], uploads: [] });
});

test('on S3: a resumable (tus) upload becomes an object of the bucket and reads back by SHA-256', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const content = randomBytes(1024 * 1024 + 7);
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const created = await fetch(`${s3.url}/api/dms-file/tus`, {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      authorization: `Bearer ${token}`,
      'upload-length': String(content.length),
      'upload-metadata': `filename ${b64('resumable.bin')},crProcessId ${b64(String(crProcessId))}`,
    },
  });
  t.is(created.status, 201, await created.text());
  const patched = await fetch(`${s3.url}${created.headers.get('location')}`, {
    method: 'PATCH',
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: content,
  });
  t.is(patched.status, 204, await patched.text());
  const fileId = Number(patched.headers.get('upload-file-id'));
  const record = await api('GET', `/api/dms-file/${fileId}`, { token });
  t.is(record.body.checksum, sha256(content));
  t.is(await objectSize(record.body.storedFileName), content.length);
  const url = await api('GET', `/api/dms-file/${fileId}/download-url`, { token, baseUrl: s3.url });
  t.is(sha256((await download(url.body.url)).bytes), sha256(content));
});

test.serial(
  'on S3: every upload is scanned from the bucket; an infected one is 422 upload.infected, audited with its signature, and leaves no object',
  async (t) => {
    const { token } = await adminSession();
    const { crProcessId } = await createAccount();
    const before = await objectKeys();
    const content = `a report ${randomUUID()}\n${TEST_MARKER}\nwith something inside\n`;
    const refused = await upload({ token, crProcessId, content, fileName: 'report.txt', baseUrl: s3.url });
    assertErrorBody(t, refused, 422, 'SVC-SYS-2001');
    const [audit] = await sql<{ details: string }>(`select details from dms.dms_audit_log where cr_process_id = $1 and action = 'UPLOAD_REFUSED'`, [
      crProcessId,
    ]);
    t.like(JSON.parse(audit?.details ?? '{}'), { reason: 'infected', signature: TEST_SIGNATURE_FOUND });
    t.deepEqual(
      (await objectKeys()).filter((key) => !before.includes(key)),
      [],
      'the infected bytes are not in the bucket',
    );
    t.deepEqual(await sql('select id from dms.dms_file where cr_process_id = $1', [crProcessId]), []);
    const clean = await uploaded(token, crProcessId, 'nothing inside');
    t.is(await objectSize(clean.storedFileName), 'nothing inside'.length, 'a clean file is kept');
  },
);

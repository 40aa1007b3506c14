/**
 * Files through the gateway: the multipart upload, signed URLs, and where the platform keeps bytes.
 */
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { sql } from './db.ts';
import { adminSession, create, createAccount } from './factories.ts';
import { api, platform, type ApiResponse } from './platform.ts';

export interface UploadOptions {
  token: string;
  crProcessId: number;
  content: Uint8Array | string;
  fileName?: string;
  type?: string;
  fields?: Record<string, string>;
  baseUrl?: string;
  headers?: Record<string, string>;
}

/** POST /api/dms-file/upload as a browser form would send it. */
export async function upload(options: UploadOptions): Promise<ApiResponse> {
  const form = new FormData();
  form.set('crProcessId', String(options.crProcessId));
  for (const [name, value] of Object.entries(options.fields ?? {})) form.set(name, value);
  const bytes = typeof options.content === 'string' ? new TextEncoder().encode(options.content) : options.content;
  form.set('file', new Blob([bytes], options.type ? { type: options.type } : {}), options.fileName ?? 'walk.txt');
  const response = await fetch(`${options.baseUrl ?? platform.url}/api/dms-file/upload`, {
    method: 'POST',
    headers: { ...options.headers, authorization: `Bearer ${options.token}` },
    body: form,
  });
  const text = await response.text();
  const body = response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body, text };
}

/** An uploaded file's record, as GET shows it. */
export async function uploadRecord(token: string, crProcessId: number, content: Uint8Array | string = 'walk file', fileName = 'walk.txt'): Promise<any> {
  const uploaded = await upload({ token, crProcessId, content, fileName });
  if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`);
  const got = await api('GET', `/api/dms-file/${uploaded.body.fileId}`, { token });
  if (got.status !== 200) throw new Error(`get: ${got.status} ${got.text}`);
  return got.body;
}

/**
 * A fresh tenant's file and a share link to it guarded by a password (`passwordOf(crProcessId)`, so
 * each tenant's differs); the admin's token, the file's record, the link and its public `url`.
 */
export async function sharedWithPassword(
  passwordOf: (crProcessId: number) => string,
  content: Uint8Array | string = 'guarded bytes',
  fileName = 'guarded.txt',
) {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const record = await uploadRecord(token, crProcessId, content, fileName);
  const password = passwordOf(crProcessId);
  const link = await create('dms-share-link', { crProcessId, fileId: record.id, password });
  return { token, crProcessId, record, link, password, url: link.url as string };
}

/** The download token of docs/interface.md#files, as a client holding DMS_URL_SECRET would compute it. */
export function signDownload(id: number | string, expires: number | string, inline: boolean | string): string {
  return createHmac('sha256', Buffer.from(platform.env.DMS_URL_SECRET ?? '', 'utf8'))
    .update(`${id}:${expires}:${inline}`)
    .digest('base64url');
}

/** DMS_STORAGE_DIR of the platform under test (its default: DATA_DIR/files). */
export function storageDir(): string {
  return platform.env.DMS_STORAGE_DIR ?? join(platform.env.DATA_DIR ?? '', 'files');
}

let bucketClient: S3Client | undefined;

/** The platform's bucket (TEST_DMS_STORAGE=s3: its DMS_STORAGE=s3), or undefined when its files are in its folder. */
function bucketOf(): { client: S3Client; bucket: string } | undefined {
  const env = platform.env;
  if (env.DMS_STORAGE !== 's3') return undefined;
  bucketClient ??= new S3Client({
    endpoint: env.DMS_S3_ENDPOINT,
    region: env.DMS_S3_REGION ?? 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: env.DMS_S3_ACCESS_KEY_ID ?? '', secretAccessKey: env.DMS_S3_SECRET_ACCESS_KEY ?? '' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { client: bucketClient, bucket: env.DMS_S3_BUCKET ?? '' };
}

/** A key of a resumable upload in the bucket: `<upload id>` (its multipart upload, then its object) and `<upload id>.<kind>`. */
const TUS_KEY = /^[0-9a-f]{32}(\.(info|part|head))?$/;

/** Whether the platform keeps its files in a bucket (TEST_DMS_STORAGE=s3). */
export function filesOnS3(): boolean {
  return bucketOf() !== undefined;
}

/** Every key of the bucket, streamed page by page. */
async function bucketKeys(store: { client: S3Client; bucket: string }): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await store.client.send(new ListObjectsV2Command({ Bucket: store.bucket, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/**
 * The resumable uploads' names where the platform keeps them, sorted: in the folder
 * `<storage>/.tus` (`<id>` the bytes, `<id>.json` the record); in the bucket, `<id>` for an upload's
 * multipart upload in progress or its completed object, and its objects `<id>.info` (the record),
 * `<id>.part` and `<id>.head`. `<id>` present means the upload's bytes are there, on either store.
 */
export async function tusNames(): Promise<string[]> {
  const store = bucketOf();
  if (!store) return (await readdir(join(storageDir(), '.tus')).catch(() => [] as string[])).sort();
  const uploads = await store.client.send(new ListMultipartUploadsCommand({ Bucket: store.bucket }));
  const names = [...(await bucketKeys(store)), ...(uploads.Uploads ?? []).map((upload) => upload.Key ?? '')];
  return [...new Set(names.filter((name) => TUS_KEY.test(name)))].sort();
}

/** Dates a resumable upload's creation back to `created` in its record (as though it were that old), on either store. */
export async function backdateTusUpload(id: string, created: Date): Promise<void> {
  const store = bucketOf();
  if (!store) {
    const state = join(storageDir(), '.tus', `${id}.json`);
    const info = JSON.parse(await readFile(state, 'utf8'));
    await writeFile(state, JSON.stringify({ ...info, creation_date: created.toISOString() }));
    return;
  }
  const key = `${id}.info`;
  const answer = await store.client.send(new GetObjectCommand({ Bucket: store.bucket, Key: key }));
  const info = JSON.parse((await answer.Body?.transformToString()) ?? '{}');
  const body = JSON.stringify({ ...info, creation_date: created.toISOString() });
  await store.client.send(new PutObjectCommand({ Bucket: store.bucket, Key: key, Body: body, Metadata: answer.Metadata }));
}

/**
 * The names in the platform's storage, as its folder shows them: the folder's entries; in a bucket,
 * the key of each object a dms-file row names, and `.upload-<key>.part` for the bytes of an upload
 * that is not (or not yet) a file: an object no row names (an upload goes to its final key before
 * its row commits) and a multipart upload not completed. So a check for an upload's leftover
 * temporaries means the same on either store.
 */
export async function storageNames(): Promise<string[]> {
  const store = bucketOf();
  if (!store) return readdir(storageDir());
  // the resumable uploads' keys are theirs (tusNames), as the folder shows them as one entry `.tus`
  const keys = (await bucketKeys(store)).filter((key) => !TUS_KEY.test(key));
  const named = new Set(
    (await sql<{ stored_file_name: string }>('select stored_file_name from dms.dms_file where stored_file_name = any($1)', [keys])).map(
      (row) => row.stored_file_name,
    ),
  );
  const uploads = await store.client.send(new ListMultipartUploadsCommand({ Bucket: store.bucket }));
  return [
    ...keys.map((key) => (named.has(key) ? key : `.upload-${key}.part`)),
    ...(uploads.Uploads ?? []).filter((upload) => !TUS_KEY.test(upload.Key ?? '')).map((upload) => `.upload-${upload.Key}.part`),
  ];
}

/** The bytes under a name of storageNames(), or undefined when there are none to read (gone, or an unfinished multipart upload). */
export async function storedBytes(name: string): Promise<Buffer | undefined> {
  const store = bucketOf();
  if (!store) return readFile(join(storageDir(), name)).catch(() => undefined);
  try {
    // an object no row names shows as a temporary (storageNames); a multipart upload's parts cannot be read
    const answer = await store.client.send(new GetObjectCommand({ Bucket: store.bucket, Key: name.replace(/^\.upload-(.*)\.part$/, '$1') }));
    return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/** Whether the platform holds a stored file's bytes: in its folder, or as an object of its bucket. */
export async function storedBytesExist(storedFileName: string): Promise<boolean> {
  const store = bucketOf();
  if (!store) return existsSync(join(storageDir(), storedFileName));
  try {
    await store.client.send(new HeadObjectCommand({ Bucket: store.bucket, Key: storedFileName }));
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'NotFound') return false;
    throw error;
  }
}

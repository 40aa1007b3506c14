/**
 * Files through the gateway: the multipart upload, signed URLs, and where the platform keeps bytes.
 */
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
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

/**
 * Whether the platform holds a stored file's bytes: in its folder, or (TEST_DMS_STORAGE=s3: the
 * platform's DMS_STORAGE=s3) as an object of its bucket.
 */
export async function storedBytesExist(storedFileName: string): Promise<boolean> {
  const env = platform.env;
  if (env.DMS_STORAGE !== 's3') return existsSync(join(storageDir(), storedFileName));
  const client = new S3Client({
    endpoint: env.DMS_S3_ENDPOINT,
    region: env.DMS_S3_REGION ?? 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: env.DMS_S3_ACCESS_KEY_ID ?? '', secretAccessKey: env.DMS_S3_SECRET_ACCESS_KEY ?? '' },
  });
  try {
    await client.send(new HeadObjectCommand({ Bucket: env.DMS_S3_BUCKET, Key: storedFileName }));
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'NotFound') return false;
    throw error;
  } finally {
    client.destroy();
  }
}

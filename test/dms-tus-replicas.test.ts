/**
 * Resumable uploads across dms-svc replicas (docs/adr/0094-resumable-uploads-across-replicas.md): a
 * dms-svc and a gateway of their own beside the suite's platform, sharing its database and storage,
 * as replicas share the files volume. An upload begun on one replica is finished on the other,
 * which has no hash state for it and hashes the stored prefix again; and while one replica writes
 * an upload, the other cannot (the PostgreSQL advisory lock): 409 SVC-SYS-4002.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import test from 'ava';
import { startPlatform, type Platform } from '../scripts/lib/processes.ts';
import { adminSession, createAccount } from './helpers/factories.ts';
import { sql } from './helpers/db.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

let replica: Platform;

test.before(async () => {
  replica = await startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0', DMS_GRPC_ADDR: '', DMS_HTTP_ADDR: '' },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB },
    ports: 'free',
    log: suiteLog(),
  });
});

test.after.always(async () => {
  await replica?.stop();
});

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

test('while one replica writes an upload, a PATCH of it on the other is 409 SVC-SYS-4002 (the advisory lock), and resumes once it is free', async (t) => {
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
  // the held PATCH owns the upload's advisory lock (tus/advisory-locker.ts) once PostgreSQL shows it granted
  const locked = async () =>
    (
      await sql<{ held: number }>(
        "select count(*)::int as held from pg_locks where locktype = 'advisory' and granted and ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)",
        [`dms.tus:${location.split('/').pop()}`],
      )
    )[0]?.held === 1;
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

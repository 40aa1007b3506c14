/**
 * Request ids (the operations issue: "A request id: the client's X-Request-Id when it is
 * well-formed, else a new one; returned on every response, carried in gRPC metadata, and written
 * on every service log line and exception-log entry about that request"; docs/adr/0044-logs-are-json-lines-with-an-access.md).
 */
import { randomBytes } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { Platform } from '../scripts/lib/processes.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import { adminSession, createAccount, freshTenant } from './helpers/factories.ts';
import { storageDir, upload } from './helpers/files.ts';
import { sql, withDb } from './helpers/db.ts';
import { api, platform } from './helpers/platform.ts';
import { logLine, type LogLine } from './helpers/platform-log.ts';
import { startGateway, uniquePrefix, untilRedisUp } from './helpers/redis.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const newId = (what: string) => `${what}.${randomBytes(6).toString('hex')}_T-1`;
const accessLine = (requestId: string) => logLine(requestId, (line) => line.source === 'gateway' && line.entry.msg === 'request completed');
const failureLine = (requestId: string, source: string) => logLine(requestId, (line) => line.source === source && line.entry.msg === 'unexpected failure');

async function exceptionEntry(refId: string): Promise<any> {
  let entry = await api('GET', `/api/logs/exceptions/${refId}`, { apiKey: true });
  for (let i = 0; i < 50 && entry.status === 404; i++) {
    await new Promise((r) => setTimeout(r, 100));
    entry = await api('GET', `/api/logs/exceptions/${refId}`, { apiKey: true });
  }
  return entry.body;
}

/** A database failure for one marker value only, so that no other test meets it. */
async function failingInsert<T>(table: string, column: string, marker: string, work: () => Promise<T>): Promise<T> {
  const name = `fail_${randomBytes(6).toString('hex')}`;
  const [schema] = table.split('.');
  await sql(`create function ${schema}.${name}() returns trigger language plpgsql as $$
    begin if new.${column} = '${marker}' then raise exception 'injected failure'; end if; return new; end $$`);
  await sql(`create trigger ${name} before insert on ${table} for each row execute function ${schema}.${name}()`);
  try {
    return await work();
  } finally {
    await withDb(async (db) => {
      await db.query(`drop trigger if exists ${name} on ${table}`);
      await db.query(`drop function if exists ${schema}.${name}()`);
    });
  }
}

test('a well-formed X-Request-Id comes back, and the access line carries it with method, route template, status, duration, user and tenant', async (t) => {
  const { token } = await adminSession();
  const requestId = newId('client');
  const res = await api('GET', '/api/branch/987654321?probe=1', { token, headers: { 'x-request-id': requestId } });
  t.is(res.status, 404);
  t.is(res.headers.get('x-request-id'), requestId);
  const access = await accessLine(requestId);
  t.truthy(access, 'an access line of the request');
  t.like(access?.entry, {
    level: 'info',
    service: 'gateway',
    requestId,
    method: 'GET',
    route: '/api/branch/:key',
    status: 404,
    userCode: 'admin',
    crProcessId: 1,
  });
  t.is(typeof access?.entry.durationMs, 'number');
  t.false(JSON.stringify(access?.entry).includes('987654321'), 'the route template, never the path');
});

test('a malformed X-Request-Id is replaced by a new UUID, a request without one gets one of its own, and 128 characters of [A-Za-z0-9._-] are kept', async (t) => {
  for (const given of ['has space', 'semi;colon', 'x'.repeat(129), 'ünicode', '{"json":1}']) {
    const res = await api('GET', '/api/health', { headers: { 'x-request-id': given } });
    t.is(res.status, 200);
    const id = res.headers.get('x-request-id') ?? '';
    t.regex(id, UUID, given);
    t.truthy(await accessLine(id), `the access line carries the id that replaced ${given}`);
  }
  const first = (await api('GET', '/api/health')).headers.get('x-request-id') ?? '';
  const second = (await api('GET', '/api/health')).headers.get('x-request-id') ?? '';
  t.regex(first, UUID);
  t.regex(second, UUID);
  t.not(first, second);
  const longest = `A.b-9_${'z'.repeat(122)}`;
  t.is((await api('GET', '/api/health', { headers: { 'x-request-id': longest } })).headers.get('x-request-id'), longest);
});

test('refusals carry the id too: 401 before the JWT step, 404, 400 from request sanity', async (t) => {
  const { token } = await adminSession();
  const cases = [
    { path: '/api/branch/1', options: {}, status: 401 },
    { path: '/api/no-such-thing', options: { token }, status: 404 },
    { path: '/api/branch/%FF', options: { token }, status: 400 },
  ];
  for (const { path, options, status } of cases) {
    const requestId = newId('refused');
    const res = await api('GET', path, { ...options, headers: { 'x-request-id': requestId } });
    t.is(res.status, status, path);
    t.is(res.headers.get('x-request-id'), requestId, path);
    t.like((await accessLine(requestId))?.entry, { requestId, status, method: 'GET' });
  }
});

test('the id travels in gRPC metadata: the service logs the failure under it, its exception entry carries it, and so does the gateway access line', async (t) => {
  const { token } = await adminSession();
  const marker = `rid-${randomBytes(6).toString('hex')}`;
  const requestId = newId('grpc');
  const res = await failingInsert('bpm.business_partner', 'partner_name', marker, () =>
    api('POST', '/api/business-partner', {
      token,
      headers: { 'x-request-id': requestId },
      body: { crProcessId: freshTenant(), partnerCode: marker, partnerName: marker, partnerType: 'CUSTOMER' },
    }),
  );
  t.is(res.status, 500);
  t.is(res.headers.get('x-request-id'), requestId);
  const refId: string = res.body.refId;
  const serviceLine: LogLine | undefined = await failureLine(requestId, 'bpm-svc');
  t.like(serviceLine?.entry, { level: 'error', service: 'bpm-svc', requestId, refId });
  t.like((serviceLine?.entry.err as Record<string, unknown> | undefined) ?? {}, { type: 'DriverException' });
  t.like(await exceptionEntry(refId), { refId, service: 'bpm', requestId });
  t.like((await accessLine(requestId))?.entry, { requestId, method: 'POST', route: '/api/business-partner', status: 500, userCode: 'admin' });
  const listed = await api('POST', '/api/logs/exceptions/list', { apiKey: true, body: { filter: { requestId } } });
  t.deepEqual(
    listed.body.content.map((entry: { refId: string }) => entry.refId),
    [refId],
    'the exception list filters by requestId',
  );
});

test('the id travels with the file bytes to dms-svc, through the proxy (upload) and the relay (download); the signed URL token stays out of its log and the exception entry', async (t) => {
  const { token } = await adminSession();
  const crProcessId = (await createAccount()).crProcessId;
  // the proxy: a database failure while storing the upload
  const marker = `rid-${randomBytes(6).toString('hex')}.txt`;
  const uploadId = newId('upload');
  const refused = await failingInsert('dms.dms_file', 'original_file_name', marker, () =>
    upload({ token, crProcessId, content: 'bytes', fileName: marker, headers: { 'x-request-id': uploadId } }),
  );
  t.is(refused.status, 500);
  t.is(refused.headers.get('x-request-id'), uploadId);
  t.like((await failureLine(uploadId, 'dms-svc'))?.entry, { service: 'dms-svc', requestId: uploadId, refId: refused.body.refId });
  t.like(await exceptionEntry(refused.body.refId), { service: 'dms', requestId: uploadId });
  t.like((await accessLine(uploadId))?.entry, { route: '/api/dms-file/upload', status: 500 });

  // the relay: a stored file gone from the disk
  const stored = await upload({ token, crProcessId, content: 'gone soon', fileName: 'gone.txt' });
  t.is(stored.status, 200);
  await unlink(join(storageDir(), stored.body.storedFileName));
  const url: string = (await api('GET', `/api/dms-file/${stored.body.fileId}/download-url`, { token })).body.url;
  const signature = new URL(url, platform.url).searchParams.get('token') ?? '';
  const downloadId = newId('download');
  const res = await api('GET', url, { headers: { 'x-request-id': downloadId } });
  t.is(res.status, 500);
  t.is(res.headers.get('x-request-id'), downloadId);
  const failure = await failureLine(downloadId, 'dms-svc');
  t.like(failure?.entry, { service: 'dms-svc', requestId: downloadId, refId: res.body.refId });
  t.regex(String(failure?.entry.path), /token=\[REDACTED\]/);
  const entry = await exceptionEntry(res.body.refId);
  t.like(entry, { service: 'dms', requestId: downloadId });
  t.regex(entry.path, /^\/api\/dms-file\/download\/\d+\?token=\[REDACTED\]&expires=\d+&inline=false&user=admin$/);
  t.false(JSON.stringify(entry).includes(signature));
  t.like((await accessLine(downloadId))?.entry, { route: '/api/dms-file/download/:id', status: 500 });
});

let edge: Platform | undefined;
test.after.always(async () => {
  await edge?.stop();
});

test("a CORS preflight, a rate-limited 429 and the IP filter's 403 carry the id: it is given before any other step; the gateway's own failure line and exception entry carry it", async (t) => {
  const origin = 'https://app.example.com';
  edge = await startGateway(platform.env, {
    // bpm-svc unreachable: the gateway's own 503
    BPM_GRPC_ADDR: `127.0.0.1:${await freePort()}`,
    GRPC_DEADLINE_MS: '2000',
    REDIS_KEY_PREFIX: uniquePrefix('request-id'),
    ALLOWED_ORIGINS: origin,
    TRUST_PROXY: '1',
    RATE_LIMIT_PUBLIC: '1',
    IP_FILTER_ENABLED: 'true',
    IP_DENY: '198.51.100.203',
  });
  // until its Redis connection is up it limits in memory, and the two requests must meet one bucket
  await untilRedisUp(edge);
  const preflightId = newId('preflight');
  const preflight = await api('OPTIONS', '/api/branch/list', {
    baseUrl: edge.url,
    headers: { origin, 'access-control-request-method': 'POST', 'x-request-id': preflightId, 'x-forwarded-for': '198.51.100.201' },
  });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('x-request-id'), preflightId);
  const client = { 'x-forwarded-for': '198.51.100.202' };
  t.is((await api('GET', '/api/health', { baseUrl: edge.url, headers: client })).status, 200);
  const limitedId = newId('limited');
  const limited = await api('GET', '/api/health', { baseUrl: edge.url, headers: { ...client, 'x-request-id': limitedId } });
  t.is(limited.status, 429);
  t.is(limited.headers.get('x-request-id'), limitedId);
  t.like((await accessLine(limitedId))?.entry, { requestId: limitedId, status: 429 });
  const deniedId = newId('denied');
  const denied = await api('GET', '/api/health', { baseUrl: edge.url, headers: { 'x-forwarded-for': '198.51.100.203', 'x-request-id': deniedId } });
  t.is(denied.status, 403);
  t.is(denied.headers.get('x-request-id'), deniedId);

  const { token } = await adminSession();
  const unavailableId = newId('unavailable');
  const unavailable = await api('GET', '/api/branch/1', { baseUrl: edge.url, token, headers: { 'x-request-id': unavailableId } });
  t.is(unavailable.status, 503);
  t.is(unavailable.headers.get('x-request-id'), unavailableId);
  const failed = await logLine(unavailableId, (line) => line.source === 'gateway' && line.entry.msg === 'request failed');
  t.like(failed?.entry, { level: 'error', requestId: unavailableId, refId: unavailable.body.refId, code: 'SVC-SYS-5002', path: '/api/branch/1' });
  t.is(typeof (failed?.entry.err as Record<string, unknown> | undefined)?.stack, 'string', 'the failure is logged with its error');
  t.like(await exceptionEntry(unavailable.body.refId), { service: 'gateway', errorCode: 'SVC-SYS-5002', requestId: unavailableId });
  t.like((await accessLine(unavailableId))?.entry, { route: '/api/branch/:key', status: 503, userCode: 'admin' });
});

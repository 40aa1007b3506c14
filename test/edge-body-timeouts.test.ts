/**
 * How long a request's body may take (docs/adr/0043-how-long-a-body-may-take.md): an upload is bounded by
 * inactivity (UPLOAD_IDLE_TIMEOUT_MS without a byte), so a large file over a slow link arrives
 * however long it takes; every other body by its total time (REQUEST_BODY_TIMEOUT_MS), so a client
 * that trickles a body forever is still cut off. A gateway of its own with short figures, in front
 * of the suite's services; requests are written byte by byte on raw connections.
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { readdir } from 'node:fs/promises';
import test from 'ava';
import type { Platform } from '../scripts/lib/processes.ts';
import { adminSession, create, createAccount } from './helpers/factories.ts';
import { sql } from './helpers/db.ts';
import { storageDir, upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';
import { startGateway, uniquePrefix } from './helpers/redis.ts';

const BODY_MS = 1500;
const IDLE_MS = 1000;
let gateway: Platform;

test.before(async () => {
  gateway = await startGateway(platform.env, {
    REDIS_KEY_PREFIX: uniquePrefix('edge-bt'),
    REQUEST_BODY_TIMEOUT_MS: String(BODY_MS),
    UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS),
  });
});

test.after.always(async () => {
  await gateway?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Exchange {
  status: number;
  /** The status line and header lines as received. */
  head: string;
  body: any;
  /** ms from the first byte sent until the server closed the connection. */
  closedAfter: number;
}

/**
 * Writes `head`, then each of `chunks` `everyMs` apart (forever, once they run out, when `forever`),
 * and reads until the server closes the connection (at most 20 s).
 */
function exchange(head: string, chunks: (string | Buffer)[], everyMs: number, options: { forever?: string } = {}): Promise<Exchange> {
  const url = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const received: Buffer[] = [];
    let next = 0;
    let timer: NodeJS.Timeout | undefined;
    // the chunks are timed from the connection, never before it: a socket takes writes while it
    // connects, and a chunk written then would reach the server ahead of the head (a slow connect
    // under load made the body's first bytes the request line: 400 instead of the awaited answer)
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(head);
      timer = setInterval(() => {
        if (socket.destroyed || !socket.writable) return;
        const chunk = next < chunks.length ? chunks[next++] : options.forever;
        if (chunk !== undefined) socket.write(chunk);
      }, everyMs);
    });
    const guard = setTimeout(() => socket.destroy(new Error('the server kept the connection open for 20 s')), 20_000);
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(guard);
      const raw = Buffer.concat(received).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const text = split < 0 ? '' : raw.slice(split + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: left as text
      }
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0),
        head: split < 0 ? raw : raw.slice(0, split),
        body,
        closedAfter: Date.now() - started,
      });
    });
  });
}

/** A multipart upload form for `crProcessId` around `content`, cut where the file's bytes begin and end. */
function form(crProcessId: number, size: number) {
  const boundary = `----edge${randomBytes(8).toString('hex')}`;
  const before = `--${boundary}\r\nContent-Disposition: form-data; name="crProcessId"\r\n\r\n${crProcessId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const after = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(before) + size + Buffer.byteLength(after);
  return { boundary, before, after, length };
}

const uploadHead = (token: string | undefined, boundary: string, length: number) =>
  `POST /api/dms-file/upload HTTP/1.1\r\nHost: x\r\n${token ? `Authorization: Bearer ${token}\r\nConnection: close\r\n` : ''}` +
  `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`;

const temporaries = async () => new Set((await readdir(storageDir())).filter((name) => name.startsWith('.upload-')));

test('an upload that trickles for longer than REQUEST_BODY_TIMEOUT_MS, never pausing for UPLOAD_IDLE_TIMEOUT_MS, is stored whole', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const content = randomBytes(32 * 1024);
  const { boundary, before, after, length } = form(crProcessId, content.length);
  // 32 pieces 120 ms apart: about 4 s in all, over twice the total a JSON body gets
  const pieces = Array.from({ length: 32 }, (_, i) => content.subarray(i * 1024, (i + 1) * 1024));
  const res = await exchange(uploadHead(token, boundary, length) + before, [...pieces, after], 120);
  t.is(res.status, 200, JSON.stringify(res.body));
  t.true(res.closedAfter > 2 * BODY_MS, `took ${res.closedAfter} ms`);
  t.is(res.body.fileSize, content.length);
  const [row] = await sql('select file_size, checksum from dms.dms_file where id = $1', [res.body.fileId]);
  t.is(Number(row.file_size), content.length);
  t.is(row.checksum, createHash('sha256').update(content).digest('hex'), 'the stored checksum is the SHA-256 of what was sent');
  const link = await api('GET', `/api/dms-file/${res.body.fileId}/download-url`, { token });
  t.is(link.status, 200, link.text);
  const got = await fetch(`${platform.url}${link.body.url as string}`);
  t.is(got.status, 200);
  t.true(Buffer.from(await got.arrayBuffer()).equals(content), 'the bytes read back are the bytes sent');
});

test('an upload that sends nothing for UPLOAD_IDLE_TIMEOUT_MS is cut off with 408 SVC-SYS-2001 and leaves no file and no row', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const before = await temporaries();
  const { boundary, before: start, length } = form(crProcessId, 1024 * 1024);
  const res = await exchange(uploadHead(token, boundary, length) + start, [randomBytes(16 * 1024)], 10);
  t.is(res.status, 408, JSON.stringify(res.body));
  t.like(res.body, { status: 'ERROR', error_code: 'SVC-SYS-2001' });
  t.true(res.closedAfter >= IDLE_MS && res.closedAfter < IDLE_MS + 4000, `closed after ${res.closedAfter} ms`);
  let left: string[] = [];
  for (let i = 0; i < 50; i++) {
    left = [...(await temporaries())].filter((name) => !before.has(name));
    if (left.length === 0) break;
    await sleep(100);
  }
  t.deepEqual(left, [], 'its temporary file is removed');
  t.deepEqual(await sql('select id from dms.dms_file where cr_process_id = $1', [crProcessId]), [], 'no row');
  // the tenant's uploads still work
  t.is((await upload({ token, crProcessId, content: 'after the stall', baseUrl: gateway.url })).status, 200);
});

test('a JSON body that trickles forever is cut off after REQUEST_BODY_TIMEOUT_MS with 408 SVC-SYS-2001, also on a path proxied to dms-svc', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const uploaded = await upload({ token, crProcessId, content: 'shared' });
  const link = await create('dms-share-link', { crProcessId, fileId: uploaded.body.fileId, password: 'secret-1' });
  const heads = {
    'the body parser': `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nX-API-Key: ${platform.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"userCode": "`,
    'validate-password': `POST ${link.url}/validate-password HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"password": "`,
  };
  const results = await Promise.all(Object.values(heads).map((head) => exchange(head, [], 100, { forever: 'a' })));
  for (const [what, res] of Object.keys(heads).map((name, i) => [name, results[i]] as const)) {
    t.is(res?.status, 408, `${what}: ${JSON.stringify(res?.body)}`);
    t.like(res?.body, { status: 'ERROR', error_code: 'SVC-SYS-2001', message: 'The request did not arrive in time' }, what);
    t.regex(res?.head ?? '', /^x-request-id: [0-9a-f-]{36}\r?$/im, `${what}: the answer written on the connection carries the request's id`);
    t.true((res?.closedAfter ?? 0) >= BODY_MS && (res?.closedAfter ?? Infinity) < BODY_MS + 4000, `${what}: closed after ${res?.closedAfter} ms`);
  }
});

test('an upload without a session gets no inactivity allowance: it is answered 401 and its connection closed at REQUEST_BODY_TIMEOUT_MS while it trickles', async (t) => {
  const { crProcessId } = await createAccount();
  const { boundary, before, length } = form(crProcessId, 1024 * 1024);
  const res = await exchange(uploadHead(undefined, boundary, length) + before, [], 100, { forever: 'x' });
  t.is(res.status, 401, JSON.stringify(res.body));
  t.true(res.closedAfter >= BODY_MS && res.closedAfter < BODY_MS + 4000, `closed after ${res.closedAfter} ms`);
});

/**
 * The gateway's receipt deadlines on resumable uploads
 * (docs/adr/0043-how-long-a-body-may-take.md): a tus PATCH is an upload, bounded by inactivity (UPLOAD_IDLE_TIMEOUT_MS) and not by
 * REQUEST_BODY_TIMEOUT_MS; one that stalls is cut off with 408, keeps what arrived, and resumes.
 * A gateway of its own with short figures, in front of the suite's services; the PATCH bodies are
 * written piece by piece on raw connections.
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import test from 'ava';
import type { Platform } from '../scripts/lib/processes.ts';
import { adminSession, createAccount } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { startGateway, uniquePrefix } from './helpers/redis.ts';

const BODY_MS = 1500;
const IDLE_MS = 1000;
let gateway: Platform;

test.before(async () => {
  gateway = await startGateway(platform.env, {
    REDIS_KEY_PREFIX: uniquePrefix('edge-tus'),
    REQUEST_BODY_TIMEOUT_MS: String(BODY_MS),
    UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS),
  });
});

test.after.always(async () => {
  await gateway?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const b64 = (text: string) => Buffer.from(text).toString('base64');

async function createUpload(token: string, length: number): Promise<string> {
  const { crProcessId } = await createAccount();
  const res = await fetch(`${gateway.url}/api/dms-file/tus`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(length),
      'upload-metadata': `filename ${b64('slow.bin')},crProcessId ${b64(String(crProcessId))}`,
    },
  });
  const body = await res.text();
  if (res.status !== 201) throw new Error(`creating the upload: ${res.status} ${body}`);
  return res.headers.get('location') ?? '';
}

/** A PATCH written on a raw connection: its head, then `pieces` `everyMs` apart; the status and how long until the server closed. */
function slowPatch(
  token: string,
  location: string,
  offset: number,
  length: number,
  pieces: Buffer[],
  everyMs: number,
): Promise<{ status: number; head: string; closedAfter: number }> {
  const url = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const received: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () =>
      socket.write(
        `PATCH ${location} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\nTus-Resumable: 1.0.0\r\n` +
          `Upload-Offset: ${offset}\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: ${length}\r\n\r\n`,
      ),
    );
    let next = 0;
    const timer = setInterval(() => {
      const piece = pieces[next++];
      if (piece && socket.writable) socket.write(piece);
    }, everyMs);
    const guard = setTimeout(() => socket.destroy(new Error('the server kept the connection open for 20 s')), 20_000);
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(guard);
      const raw = Buffer.concat(received).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0), head: raw.split('\r\n\r\n', 1)[0] ?? '', closedAfter: Date.now() - started });
    });
  });
}

async function offsetOf(token: string, location: string): Promise<number> {
  const res = await fetch(`${gateway.url}${location}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' } });
  return Number(res.headers.get('upload-offset'));
}

test('a tus PATCH that trickles for longer than REQUEST_BODY_TIMEOUT_MS, never idle for UPLOAD_IDLE_TIMEOUT_MS, completes', async (t) => {
  const { token } = await adminSession();
  const content = randomBytes(32 * 1024);
  const location = await createUpload(token, content.length);
  const pieces = Array.from({ length: 32 }, (_, i) => content.subarray(i * 1024, (i + 1) * 1024));
  const res = await slowPatch(token, location, 0, content.length, pieces, 120);
  t.is(res.status, 204, res.head);
  t.true(res.closedAfter > 2 * BODY_MS, `took ${res.closedAfter} ms`);
  const fileId = /upload-file-id: (\d+)/i.exec(res.head)?.[1];
  const record = await api('GET', `/api/dms-file/${fileId}`, { token });
  t.is(record.body.checksum, createHash('sha256').update(content).digest('hex'));
});

test('a tus PATCH that sends nothing for UPLOAD_IDLE_TIMEOUT_MS is cut off with 408; what arrived is kept and the upload resumes', async (t) => {
  const { token } = await adminSession();
  const content = randomBytes(64 * 1024);
  const location = await createUpload(token, content.length);
  const res = await slowPatch(token, location, 0, content.length, [content.subarray(0, 16 * 1024)], 10);
  t.is(res.status, 408, res.head);
  t.true(res.closedAfter >= IDLE_MS && res.closedAfter < IDLE_MS + 4000, `closed after ${res.closedAfter} ms`);
  let offset = -1;
  for (let i = 0; i < 50 && offset !== 16 * 1024; i++) {
    offset = await offsetOf(token, location);
    if (offset !== 16 * 1024) await sleep(100);
  }
  t.is(offset, 16 * 1024, 'the bytes that arrived are kept');
  const rest = await fetch(`${gateway.url}${location}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body: content.subarray(offset),
  });
  t.is(rest.status, 204, await rest.text());
  const record = await api('GET', `/api/dms-file/${rest.headers.get('upload-file-id')}`, { token });
  t.is(record.body.checksum, createHash('sha256').update(content).digest('hex'));
});

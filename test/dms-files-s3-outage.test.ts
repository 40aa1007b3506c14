/**
 * A bucket that fails (DMS_STORAGE=s3, docs/adr/0144-files-on-s3-compatible-storage.md): a dms-svc and a
 * gateway of their own whose S3 endpoint answers every request but the start's HeadBucket with 503
 * SlowDown, as a store in trouble does. An upload is then answered with a server error (never a
 * client's 4xx, never left hanging), keeps no row, and the service goes on answering. Its objects
 * (a HEAD and a GET of a stored name) are there but break off halfway: a download of one is cut
 * off, never ended as if whole ("a body shorter than its range ends the response as broken rather
 * than complete").
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { startPlatform, type Platform } from '../scripts/lib/processes.ts';
import { adminSession, createAccount } from './helpers/factories.ts';
import { sql } from './helpers/db.ts';
import { signDownload, upload, uploadRecord } from './helpers/files.ts';
import { platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

let store: Server;
let broken: Platform;
let requests = 0;
let objectGets = 0;
/** The size of every object the store names: several of dms-svc's 512 KiB writes (files/relay-body.ts). */
const OBJECT_BYTES = 4 * 1024 * 1024;

test.before(async () => {
  store = createServer((req, res) => {
    requests++;
    // the bucket is there (the start's HeadBucket); everything else fails as an overloaded store does
    if (req.method === 'HEAD' && /^\/platform-files\/?$/.test(req.url ?? '')) return void res.writeHead(200).end();
    // an object: its whole length announced, half of it sent, then the connection dropped
    if (/^\/platform-files\/[0-9a-f-]{36}(\?|$)/.test(req.url ?? '') && (req.method === 'HEAD' || req.method === 'GET')) {
      if (req.method === 'GET') objectGets++;
      res.writeHead(req.method === 'HEAD' ? 200 : 206, {
        'content-length': String(OBJECT_BYTES),
        ...(req.method === 'GET' ? { 'content-range': `bytes 0-${OBJECT_BYTES - 1}/${OBJECT_BYTES}` } : {}),
      });
      if (req.method === 'HEAD') return void res.end();
      return void res.write(Buffer.alloc(OBJECT_BYTES / 2, 1), () => res.socket?.destroy());
    }
    req.resume();
    req.on('end', () =>
      res
        .writeHead(503, { 'content-type': 'application/xml' })
        .end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>'),
    );
  });
  await new Promise<void>((listening) => store.listen(0, '127.0.0.1', listening));
  const endpoint = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
  broken = await startPlatform({
    env: {
      ...platform.env,
      DMS_STORAGE: 's3',
      DMS_S3_ENDPOINT: endpoint,
      DMS_S3_BUCKET: 'platform-files',
      DMS_S3_ACCESS_KEY_ID: 'test:tester',
      DMS_S3_SECRET_ACCESS_KEY: 'testing',
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
  await broken?.stop();
  await new Promise((closed) => store?.close(closed));
});

test('on a failing bucket an upload, small or of several parts, is a server error within seconds and keeps no row; the service still answers', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  for (const content of [randomBytes(10_000), randomBytes(20 * 1024 * 1024)]) {
    const before = requests;
    const started = Date.now();
    const res = await upload({ token, crProcessId, content, baseUrl: broken.url });
    t.true(res.status >= 500, `${res.status} ${res.text}`);
    t.true(Date.now() - started < 30_000, 'answered, not left hanging');
    t.true(requests > before, 'the store was asked');
  }
  t.deepEqual(await sql('select id from dms.dms_file where cr_process_id = $1', [crProcessId]), [], 'no row for bytes the store never kept');
  const health = await fetch(`${broken.url}/api/health`);
  t.is(health.status, 200);
});

test('a download whose object breaks off halfway is cut off, not ended as complete; the service still answers', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  // a row of the shared database, its bytes in the suite's own store; the broken store claims its name
  const record = await uploadRecord(token, crProcessId, 'named by the broken store too');
  const expires = Math.floor(Date.now() / 1000) + 600;
  const url = `${broken.url}/api/dms-file/download/${record.id}?token=${signDownload(record.id, expires, false)}&expires=${expires}&inline=false`;
  const before = objectGets;
  let received = 0;
  const read = async () => {
    const res = await fetch(url);
    t.is(res.status, 200);
    t.is(res.headers.get('content-length'), String(OBJECT_BYTES));
    for await (const chunk of res.body ?? []) received += (chunk as Uint8Array).length;
  };
  await t.throwsAsync(read, undefined, 'the body ends short of its Content-Length: an error, not a whole answer');
  t.true(received < OBJECT_BYTES, `${received} of ${OBJECT_BYTES} bytes`);
  t.is(objectGets, before + 1, 'the object was asked for once');
  const health = await fetch(`${broken.url}/api/health`);
  t.is(health.status, 200);
});

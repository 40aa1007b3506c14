/**
 * A bucket that fails (DMS_STORAGE=s3, docs/adr/0144-files-on-s3-compatible-storage.md): a dms-svc and a
 * gateway of their own whose S3 endpoint answers every request but the start's HeadBucket with 503
 * SlowDown, as a store in trouble does. An upload is then answered with a server error (never a
 * client's 4xx, never left hanging), keeps no row, and the service goes on answering.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { startPlatform, type Platform } from '../scripts/lib/processes.ts';
import { adminSession, createAccount } from './helpers/factories.ts';
import { sql } from './helpers/db.ts';
import { upload } from './helpers/files.ts';
import { platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

let store: Server;
let broken: Platform;
let requests = 0;

test.before(async () => {
  store = createServer((req, res) => {
    requests++;
    // the bucket is there (the start's HeadBucket); everything else fails as an overloaded store does
    if (req.method === 'HEAD' && /^\/platform-files\/?$/.test(req.url ?? '')) return void res.writeHead(200).end();
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

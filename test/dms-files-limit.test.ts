/**
 * "A file over DMS_MAX_UPLOAD_BYTES ... is 413 SVC-SYS-3001, and nothing of it is kept" (docs/interface.md#files): a dms-svc and a gateway of their own with a 1 KiB limit, beside the suite's platform (same
 * database and storage), the way the edge tests start gateways of their own.
 */
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import { startPlatform, type Platform } from '../scripts/lib/processes.ts';
import { adminSession, createAccount } from './helpers/factories.ts';
import { storageNames, upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

let limited: Platform;

test.before(async () => {
  limited = await startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0', DMS_GRPC_ADDR: '', DMS_HTTP_ADDR: '', DMS_MAX_UPLOAD_BYTES: '1024' },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB },
    ports: 'free',
    log: suiteLog(),
  });
});

test.after.always(async () => {
  await limited?.stop();
});

test("an upload over DMS_MAX_UPLOAD_BYTES is 413 SVC-SYS-3001 in the caller's language, and leaves no file and no row; one at the limit is stored", async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const before = new Set(await storageNames());
  const over = await upload({ token, crProcessId, content: new Uint8Array(1025), baseUrl: limited.url });
  t.is(over.status, 413, over.text);
  t.is(over.body.error_code, 'SVC-SYS-3001');
  t.is(over.body.status, 'ERROR');
  t.is(over.body.message, 'The file is too large');
  // the storage is the suite's: another file's upload under way leaves its .part for a moment, this
  // one's would stay
  const temporary = async () => (await storageNames()).filter((name) => !before.has(name) && name.startsWith('.upload-'));
  let left = await temporary();
  for (const deadline = Date.now() + 10_000; left.length > 0 && Date.now() < deadline; left = await temporary()) await delay(100);
  t.deepEqual(left, []);
  const listed = await api('POST', '/api/dms-file/list', { token, body: { filter: { crProcessId } } });
  t.is(listed.body.totalElements, 0);

  const atLimit = await upload({ token, crProcessId, content: new Uint8Array(1024), baseUrl: limited.url });
  t.is(atLimit.status, 200, atLimit.text);
  t.is(atLimit.body.fileSize, 1024);
});

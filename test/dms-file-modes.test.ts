/**
 * What dms-svc and the gateway write is their owner's alone (docs/adr/0030-the-byte-path-and-stored-bytes.md: "umask 077
 * for everything the platform writes"): a stored file is 0600 and its folder 0700, a tus upload's
 * parked bytes and state are 0600 in a 0700 folder, and DATA_DIR is 0700. Read on the suite's own
 * platform, whose folders its processes made.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { adminSession, createAccount } from './helpers/factories.ts';
import { storageDir, uploadRecord } from './helpers/files.ts';
import { platform } from './helpers/platform.ts';

/** The permission bits of `path` (0o7777 of st_mode), in octal as `ls -l` reads them. */
async function modeOf(path: string): Promise<string> {
  return ((await stat(path)).mode & 0o7777).toString(8).padStart(4, '0');
}

test('an uploaded file is stored 0600 in a 0700 folder, and DATA_DIR is 0700', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const record = await uploadRecord(token, crProcessId, 'private bytes', 'private.txt');
  t.regex(record.storedFileName, /^[0-9a-f-]{36}$/);
  t.is(await modeOf(join(storageDir(), record.storedFileName)), '0600', 'the stored file: its owner reads and writes it, nobody else');
  t.is(await modeOf(storageDir()), '0700', 'DMS_STORAGE_DIR');
  t.is(await modeOf(platform.env.DATA_DIR ?? ''), '0700', 'DATA_DIR');
});

test("an unfinished tus upload's parked bytes and state are 0600 in a 0700 folder", async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  // creation with upload: 4 of 10 bytes sent, the rest never
  const created = await fetch(`${platform.url}/api/dms-file/tus`, {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      authorization: `Bearer ${token}`,
      'upload-length': '10',
      'upload-metadata': `filename ${b64('parked.bin')},crProcessId ${b64(String(crProcessId))}`,
      'content-type': 'application/offset+octet-stream',
    },
    body: new Uint8Array([1, 2, 3, 4]),
  });
  t.is(created.status, 201, await created.text());
  t.is(created.headers.get('upload-offset'), '4');
  const id = (created.headers.get('location') ?? '').split('/').pop() ?? '';
  t.regex(id, /^[\w-]+$/);
  const parking = join(storageDir(), '.tus');
  t.is(await modeOf(parking), '0700', 'the tus folder');
  t.is(await modeOf(join(parking, id)), '0600', 'the parked bytes');
  t.is(await modeOf(join(parking, `${id}.json`)), '0600', "the upload's state");
  const ended = await fetch(`${platform.url}/api/dms-file/tus/${id}`, {
    method: 'DELETE',
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` },
  });
  t.is(ended.status, 204);
});

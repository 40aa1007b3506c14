/**
 * The storage sweep (docs/adr/0036-retention-runs-as-a-job-in-dms-svc.md): what crashes leave in DMS_STORAGE_DIR — upload
 * temporaries (`.upload-*.part`) and bytes under a stored name without a dms-file row — is removed
 * once older than the grace period (an hour); young leftovers, files with a row (a soft-deleted one
 * too) and names that are not the storage's stay. Leftovers are planted in the suite's storage
 * directory with old mtimes (fs.utimes); a sweep is SweepDmsStorage (internal), as the retention job
 * runs it. A second dms-svc on the same database and volume stands for another replica.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { TokenService } from '@platform/kit/auth/jwt.ts';
import { DmsRetentionPolicyServiceClient, type SweepDmsStorageResponse } from '@platform/kit/gen/platform/dms/v1/dms_retention_policy.ts';
import { startPlatform, type Platform } from '../scripts/lib/processes.ts';
import { adminSession, createAccount } from './helpers/factories.ts';
import { storageDir, upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

const tokens = new TokenService(platform.jwtSecret);
const MINUTE = 60_000;
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

/** One sweep by the dms-svc at `address` (the suite's unless told). */
function sweep(address = platform.grpc.dms, token = tokens.internalToken('test')): Promise<SweepDmsStorageResponse> {
  const client = new DmsRetentionPolicyServiceClient(address, credentials.createInsecure());
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return new Promise((resolve, reject) =>
    client.sweepDmsStorage({}, metadata, (error, response) => {
      client.close();
      if (error || !response) reject(error ?? new Error('no response'));
      else resolve(response);
    }),
  );
}

/** A file in the storage directory last written `ageMs` ago. */
async function plant(name: string, ageMs: number): Promise<string> {
  const path = join(storageDir(), name);
  await writeFile(path, `left over ${name}`);
  await age(path, ageMs);
  return name;
}

async function age(path: string, ageMs: number): Promise<void> {
  const when = new Date(Date.now() - ageMs);
  await utimes(path, when, when);
}

const present = (name: string) => existsSync(join(storageDir(), name));

test.serial(
  'a sweep removes temporaries unwritten for over an hour and stored-name files no row names older than an hour; young ones, files with a row (soft-deleted too) and other names stay',
  async (t) => {
    const { token } = await adminSession();
    const { crProcessId } = await createAccount();
    const live = await upload({ token, crProcessId, content: 'kept with its row', fileName: 'live.txt' });
    const deleted = await upload({ token, crProcessId, content: 'kept until purged', fileName: 'deleted.txt' });
    t.is(live.status, 200, live.text);
    t.is(deleted.status, 200, deleted.text);
    t.is((await api('DELETE', `/api/dms-file/${deleted.body.fileId}`, { token })).status, 204);
    const withRows = [live.body.storedFileName as string, deleted.body.storedFileName as string];
    for (const name of withRows) await age(join(storageDir(), name), 120 * MINUTE);

    const oldTemporary = await plant(`.upload-${randomUUID()}.part`, 61 * MINUTE);
    const youngTemporary = await plant(`.upload-${randomUUID()}.part`, 50 * MINUTE);
    const oldOrphan = await plant(randomUUID(), 120 * MINUTE);
    const youngOrphan = await plant(randomUUID(), 50 * MINUTE);
    const notOurs = await plant(`notes-${randomUUID()}.txt`, 120 * MINUTE);
    const folder = randomUUID();
    await mkdir(join(storageDir(), folder));
    await age(join(storageDir(), folder), 120 * MINUTE);

    const counts = await sweep();
    t.true(counts.temporariesRemoved >= 1);
    t.true(counts.orphansRemoved >= 1);
    t.false(present(oldTemporary), 'an upload temporary unwritten for over an hour is removed');
    t.false(present(oldOrphan), 'bytes no row names, older than an hour, are removed');
    t.true(present(youngTemporary), 'a temporary written to within the hour may be an upload under way');
    t.true(present(youngOrphan), 'young bytes without a row may be an upload between its rename and its commit');
    for (const name of withRows) t.true(present(name), `${name} has a row`);
    t.true(present(notOurs), 'a name the storage never makes is left alone');
    t.true(present(folder), 'a folder is left alone');
    const got = await api('GET', `/api/dms-file/${live.body.fileId}`, { token });
    const bytes = await fetch(`${platform.url}${got.body.downloadUrl}`);
    t.is(await bytes.text(), 'kept with its row');
  },
);

test.serial('sweeps of two replicas at once remove each leftover once', async (t) => {
  const temporaries = await Promise.all(Array.from({ length: 30 }, () => plant(`.upload-${randomUUID()}.part`, 120 * MINUTE)));
  const orphans = await Promise.all(Array.from({ length: 30 }, () => plant(randomUUID(), 120 * MINUTE)));
  const results = await Promise.all([sweep(), sweep(replica.env.DMS_GRPC_ADDR), sweep(), sweep(replica.env.DMS_GRPC_ADDR)]);
  t.is(
    results.reduce((sum, r) => sum + r.temporariesRemoved, 0),
    30,
  );
  t.is(
    results.reduce((sum, r) => sum + r.orphansRemoved, 0),
    30,
  );
  t.deepEqual([...temporaries, ...orphans].filter(present), []);
});

test('SweepDmsStorage serves only the internal credential', async (t) => {
  const { token } = await adminSession();
  const error = await sweep(platform.grpc.dms, token).catch((e: ServiceError) => e);
  t.is((error as ServiceError).code, status.UNAUTHENTICATED);
});

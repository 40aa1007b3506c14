/**
 * Share-link download slots have a lease (docs/adr/0037-share-links-public-paths.md): a download
 * under way holds its slot while it renews the lease, so a link with maxDownloads cannot be used up
 * by downloads whose dms-svc died. A dms-svc and a gateway of their own, with a short
 * DMS_SHARE_LEASE_SECONDS, beside the suite's platform (same database and storage): one of them is
 * killed mid-download, and the suite's platform judges the link afterwards.
 */
import { randomBytes } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import test from 'ava';
import { startPlatform, type Platform } from '../scripts/lib/processes.ts';
import { adminSession, create, createAccount } from './helpers/factories.ts';
import { sql } from './helpers/db.ts';
import { upload } from './helpers/files.ts';
import { settledDownloadCount } from './helpers/share-downloads.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

const LEASE_SECONDS = 4;
let leased: Platform;

test.before(async () => {
  leased = await startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0', DMS_GRPC_ADDR: '', DMS_HTTP_ADDR: '', DMS_SHARE_LEASE_SECONDS: String(LEASE_SECONDS) },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB },
    ports: 'free',
    log: suiteLog(),
  });
});

test.after.always(async () => {
  await leased?.stop();
});

/** A file of a fresh tenant and a link to it. */
async function shared(content: Uint8Array, link: Record<string, unknown>) {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const uploaded = await upload({ token, crProcessId, content, fileName: 'leased.bin' });
  if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`);
  const created = await create('dms-share-link', { crProcessId, fileId: uploaded.body.fileId, ...link });
  return { token, crProcessId, link: created, url: created.url as string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const statusOf = async (url: string, base = platform.url) => {
  const res = await fetch(`${base}${url}`);
  await res.arrayBuffer();
  return res.status;
};
const downloadCount = settledDownloadCount;
const slotsOf = (id: number) =>
  sql<{ id: string; live: boolean; lease_until: Date }>(
    'select id, lease_until > now() as live, lease_until from dms.dms_share_download_slot where share_link_id = $1 order by id',
    [id],
  );

/** A GET whose first bytes have arrived and whose reading is paused: the download is under way, held back by the client. */
function pausedDownload(url: string): Promise<{ res: IncomingMessage; chunks: Buffer[]; rest(): Promise<Buffer> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      const chunks: Buffer[] = [];
      const ended = new Promise<Buffer>((done, fail) => {
        res.on('end', () => done(Buffer.concat(chunks)));
        res.on('error', fail);
        res.on('aborted', () => fail(new Error('aborted')));
      });
      ended.catch(() => undefined);
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('data', () => {
        res.pause();
        resolve({
          res,
          chunks,
          rest: () => {
            res.resume();
            return ended;
          },
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

test('a slot whose lease lapsed counts for nothing, a live one holds its place until it lapses', async (t) => {
  const content = randomBytes(2048);
  const lapsed = await shared(content, { maxDownloads: 1 });
  await sql(`insert into dms.dms_share_download_slot (share_link_id, lease_until) values ($1, now() - interval '1 second')`, [lapsed.link.id]);
  t.is(await statusOf(lapsed.url), 200, 'the lapsed slot of a download that died frees its place');
  t.is(await downloadCount(lapsed.link.id), 1);
  t.deepEqual(await slotsOf(lapsed.link.id), [], 'a take removes the lapsed slots of its link');

  const held = await shared(content, { maxDownloads: 1 });
  const [slot] = await sql<{ id: string }>(
    `insert into dms.dms_share_download_slot (share_link_id, lease_until) values ($1, now() + interval '1 hour') returning id`,
    [held.link.id],
  );
  t.is(await statusOf(held.url), 410, 'every slot is held by a download under way');
  t.is((await api('GET', `/api/dms-share-link/${held.link.id}`, { token: held.token })).body.downloadCount, 0, 'downloadCount counts completed downloads');
  await sql(`update dms.dms_share_download_slot set lease_until = now() - interval '1 second' where id = $1`, [slot?.id]);
  t.is(await statusOf(held.url), 200);
  t.is(await downloadCount(held.link.id), 1);
  t.is(await statusOf(held.url), 410, 'used up');
});

test.serial('a download under way keeps its slot for many lease lengths by renewing it, and counts once when it completes', async (t) => {
  // large enough that the socket buffers between dms-svc, the gateway and the client cannot hold it
  const content = randomBytes(64 * 1024 * 1024);
  const { link, url, token, crProcessId } = await shared(content, { maxDownloads: 1 });
  const download = await pausedDownload(`${leased.url}${url}`);
  const [first] = await slotsOf(link.id);
  for (let i = 0; i < 3; i++) {
    await sleep(LEASE_SECONDS * 1000);
    t.is(await statusOf(url), 410, `after ${(i + 1) * LEASE_SECONDS} s the slot is still held`);
  }
  const [renewed] = await slotsOf(link.id);
  t.is(renewed?.id, first?.id);
  t.true(renewed?.live);
  t.true((renewed?.lease_until.getTime() ?? 0) > (first?.lease_until.getTime() ?? Infinity), 'the lease moved on');
  t.is((await api('GET', `/api/dms-share-link/${link.id}`, { token })).body.downloadCount, 0, 'a download under way is not yet counted');

  const bytes = await download.rest();
  t.true(bytes.equals(content));
  t.is(await downloadCount(link.id), 1);
  t.deepEqual(await slotsOf(link.id), [], 'the slot became the counted download');
  t.is(await statusOf(url), 410, 'used up');
  const access = await sql<{ details: string }>(`select details from dms.dms_audit_log where cr_process_id = $1 and action = 'SHARE_ACCESS'`, [crProcessId]);
  t.deepEqual(
    access.map((row) => JSON.parse(row.details).complete),
    [true],
  );
});

test.serial('the slot of a download whose dms-svc was killed midway is free again once its lease lapses, and is never counted', async (t) => {
  const content = randomBytes(64 * 1024 * 1024);
  const { link, url } = await shared(content, { maxDownloads: 1 });
  const download = await pausedDownload(`${leased.url}${url}`);
  process.kill(-leased.pids['dms-svc'], 'SIGKILL');
  await t.throwsAsync(download.rest(), undefined, 'the download broke off');

  const [slot] = await slotsOf(link.id);
  t.truthy(slot, 'the killed download left its slot behind');
  // its last renewal may be up to a lease old by now: the lease is renewed here as the dead process
  // last did, so that the slot is known to be live while it is judged
  const [renewed] = await sql<{ lease_until: Date }>(
    `update dms.dms_share_download_slot set lease_until = now() + make_interval(secs => $2) where id = $1 returning lease_until`,
    [slot?.id, LEASE_SECONDS],
  );
  t.is(await statusOf(url), 410, 'while its lease runs, the dead download holds the slot');

  let status = 0;
  const deadline = Date.now() + (LEASE_SECONDS + 10) * 1000;
  while (status !== 200 && Date.now() < deadline) {
    await sleep(250);
    status = await statusOf(url);
  }
  t.is(status, 200, 'the lapsed slot was free for the next download');
  t.true(Date.now() >= (renewed?.lease_until.getTime() ?? Infinity), 'and free only once its lease had lapsed');
  t.is(await downloadCount(link.id), 1, 'the killed download counted for nothing');
  t.is(await statusOf(url), 410, 'used up');
});

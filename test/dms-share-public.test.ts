/**
 * Public access through share links, through the gateway (docs/interface.md#share-links,
 * docs/interface.md#path-categories): "Public GET streams the file as a download when the link has no password. With a
 * password it is 401 SVC-SYS-3005 until validated"; validate-password "gives 200 {valid: true,
 * downloadUrl, expiresAt} … or 403 SVC-SYS-3005 {valid: false}"; "An expired, passive, exhausted
 * (downloadCount = maxDownloads) or deleted-file link is 410 SVC-SYS-3006; an unknown token 404".
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import test from 'ava';
import { parse as parseDisposition } from 'content-disposition';
import { adminSession, create, createAccount } from './helpers/factories.ts';
import { upload } from './helpers/files.ts';
import { withDb } from './helpers/db.ts';
import { settledDownloadCount } from './helpers/share-downloads.ts';
import { api, platform } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;

async function fetchBytes(url: string, init: RequestInit = {}) {
  const response = await fetch(`${platform.url}${url}`, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  const body = response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, bytes, body };
}

/** A file of a fresh tenant and a link to it. */
async function shared(content: Uint8Array, link: Record<string, unknown> = {}, fileName = 'shared report.bin') {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const uploaded = await upload({ token, crProcessId, content, fileName });
  if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`);
  const created = await create('dms-share-link', { crProcessId, fileId: uploaded.body.fileId, ...link });
  return { token, crProcessId, fileId: uploaded.body.fileId as number, link: created, url: created.url as string };
}

const downloadCount = settledDownloadCount;

async function auditOf(crProcessId: number, shareLinkId: number): Promise<any[]> {
  const res = await api('POST', '/api/dms-audit-log/list', {
    token: await admin(),
    body: { size: 500, filter: { crProcessId, shareLinkId }, sorts: [{ field: 'id', direction: 'ASC' }] },
  });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.body.content;
}

const validate = (url: string, body: unknown) => api('POST', `${url}/validate-password`, { body });

test('"Public GET streams the file as a download when the link has no password": byte-exact, attachment, the download headers, public tier, no session; one complete download counted and audited as SHARE_ACCESS', async (t) => {
  const content = randomBytes(1024 * 1024 + 7);
  const { crProcessId, link, url, fileId } = await shared(content, {}, 'rapor şubat.bin');
  const got = await fetchBytes(url);
  t.is(got.status, 200);
  t.true(got.bytes.equals(content));
  t.is(got.headers.get('content-length'), String(content.length));
  t.is(got.headers.get('etag'), `"${createHash('sha256').update(content).digest('hex')}"`);
  t.is(got.headers.get('x-content-type-options'), 'nosniff');
  t.is(got.headers.get('cache-control'), 'no-store');
  t.is(got.headers.get('accept-ranges'), 'bytes');
  const disposition = parseDisposition(got.headers.get('content-disposition') ?? '');
  t.is(disposition.type, 'attachment');
  t.is(disposition.parameters.filename, 'rapor şubat.bin');
  t.is(got.headers.get('ratelimit-limit'), platform.env.RATE_LIMIT_PUBLIC ?? '', '"Share-link public paths count against the public tier"');
  t.is(await downloadCount(link.id), 1);
  const got2 = await api('GET', `/api/dms-share-link/${link.id}`, { token: await admin() });
  t.is(got2.body.downloadCount, 1);
  t.is(got2.body.version, link.version, 'a download is not an edit: the version stays');
  const rows = (await auditOf(crProcessId, link.id)).filter((row) => row.action === 'SHARE_ACCESS');
  t.is(rows.length, 1);
  t.like(rows[0], { fileId, shareLinkId: link.id, userCode: 'anonymous' });
  t.truthy(rows[0].ipAddress);
  t.like(JSON.parse(rows[0].details), { complete: true, status: 200 });
});

test('the public GET serves ranges (206 counted as a download; 416 and HEAD are not)', async (t) => {
  const content = randomBytes(4096);
  const { link, url } = await shared(content);
  const head = await fetchBytes(url, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(head.headers.get('content-length'), '4096');
  const unsatisfiable = await fetchBytes(url, { headers: { range: 'bytes=9000-9999' } });
  t.is(unsatisfiable.status, 416);
  t.is(unsatisfiable.headers.get('content-range'), 'bytes */4096');
  t.is(await downloadCount(link.id), 0);
  const part = await fetchBytes(url, { headers: { range: 'bytes=10-19' } });
  t.is(part.status, 206);
  t.is(part.headers.get('content-range'), 'bytes 10-19/4096');
  t.true(part.bytes.equals(content.subarray(10, 20)));
  t.is(await downloadCount(link.id), 1);
});

test('"an unknown token 404": SVC-SYS-4001 on both public paths', async (t) => {
  for (const res of [
    await api('GET', `/api/dms-share-link/public/${randomBytes(32).toString('base64url')}`),
    await validate(`/api/dms-share-link/public/${randomBytes(32).toString('base64url')}`, { password: 'x' }),
  ]) {
    t.is(res.status, 404, res.text);
    t.is(res.body.error_code, 'SVC-SYS-4001');
  }
});

test('"An expired, passive, exhausted (downloadCount = maxDownloads) or deleted-file link is 410 SVC-SYS-3006" on both public paths', async (t) => {
  const token = await admin();
  const expired = await shared(Buffer.from('expired'));
  await withDb((db) => db.query(`update dms.dms_share_link set expires_at = now() - interval '1 second' where id = $1`, [expired.link.id]));
  const passive = await shared(Buffer.from('passive'));
  const off = await api('PUT', `/api/dms-share-link/${passive.link.id}`, { token, body: { version: passive.link.version, status: false } });
  t.is(off.status, 200, off.text);
  const exhausted = await shared(Buffer.from('exhausted'), { maxDownloads: 1 });
  t.is((await fetchBytes(exhausted.url)).status, 200);
  const deletedFile = await shared(Buffer.from('deleted'));
  t.is((await api('DELETE', `/api/dms-file/${deletedFile.fileId}`, { token })).status, 204);
  for (const [what, { url }] of Object.entries({ expired, passive, exhausted, deletedFile })) {
    for (const res of [await api('GET', url), await validate(url, { password: 'whatever' })]) {
      t.is(res.status, 410, `${what}: ${res.text}`);
      t.is(res.body.error_code, 'SVC-SYS-3006', what);
    }
  }
  t.is(await downloadCount(exhausted.link.id), 1, 'maxDownloads is never passed');
});

test('"With a password it is 401 SVC-SYS-3005 until validated": a wrong password is 403 SVC-SYS-3005 {valid: false}, a right one 200 {valid: true, downloadUrl, expiresAt} whose signed URL downloads; PASSWORD_FAIL, PASSWORD_OK and SHARE_ACCESS audited', async (t) => {
  const content = randomBytes(10_000);
  const { crProcessId, link, url } = await shared(content, { password: 'open sesame' });
  const locked = await api('GET', url);
  t.is(locked.status, 401, locked.text);
  t.like(locked.body, { status: 'ERROR', error_code: 'SVC-SYS-3005' });

  const wrong = await validate(url, { password: 'open barley' });
  t.is(wrong.status, 403, wrong.text);
  t.like(wrong.body, { status: 'ERROR', error_code: 'SVC-SYS-3005', valid: false });
  t.is(typeof wrong.body.message, 'string');

  const right = await validate(url, { password: 'open sesame' });
  t.is(right.status, 200, right.text);
  t.is(right.body.valid, true);
  t.regex(right.body.downloadUrl, new RegExp(`^${url}\\?token=[\\w-]+&expires=\\d+$`));
  const expires = Number(new URL(right.body.downloadUrl, platform.url).searchParams.get('expires'));
  t.is(right.body.expiresAt, new Date(expires * 1000).toISOString());

  const got = await fetchBytes(right.body.downloadUrl);
  t.is(got.status, 200);
  t.true(got.bytes.equals(content));
  t.is(await downloadCount(link.id), 1);

  const tampered = right.body.downloadUrl.replace(/token=./, (m: string) => (m.endsWith('A') ? 'token=B' : 'token=A'));
  t.like((await api('GET', tampered)).body, { error_code: 'SVC-SYS-3003' });
  const moved = right.body.downloadUrl.replace(/expires=\d+/, `expires=${expires + 1}`);
  t.like((await api('GET', moved)).body, { error_code: 'SVC-SYS-3003' });

  const actions = (await auditOf(crProcessId, link.id)).map((row) => row.action);
  t.deepEqual(actions, ['SHARE_CREATE', 'PASSWORD_FAIL', 'PASSWORD_OK', 'SHARE_ACCESS']);
});

test('validate-password refuses a body without a password, of another type, or with unknown fields: 400 SVC-SYS-2001', async (t) => {
  const { url } = await shared(Buffer.from('x'), { password: 'secret-1' });
  for (const body of [{}, { password: 1 }, { password: 'secret-1', extra: true }, []]) {
    const res = await validate(url, body);
    t.is(res.status, 400, JSON.stringify(body));
    t.is(res.body.error_code, 'SVC-SYS-2001');
  }
});

test('"The sixth wrong share-link password … for one link … from one IP within 15 minutes gets 429 with the rate-limit body", the right one too; other links are not affected', async (t) => {
  const { url } = await shared(Buffer.from('guarded'), { password: 'right-one' });
  const other = await shared(Buffer.from('other'), { password: 'other-one' });
  for (let i = 1; i <= 5; i++) {
    const res = await validate(url, { password: `wrong-${i}` });
    t.is(res.status, 403, `try ${i}: ${res.text}`);
  }
  const sixth = await validate(url, { password: 'wrong-6' });
  t.is(sixth.status, 429, sixth.text);
  t.like(sixth.body, { status: 429, error: 'Too Many Requests', retryAfter: 60 });
  t.is(typeof sixth.body.message, 'string');
  t.true(Number(sixth.headers.get('retry-after')) > 0);
  t.is((await validate(url, { password: 'right-one' })).status, 429);
  t.is((await validate(other.url, { password: 'other-one' })).status, 200);
});

test('"maxDownloads" with concurrent last downloads: exactly the allowed number succeed, whole; the rest are 410', async (t) => {
  const content = randomBytes(512 * 1024);
  const { link, url } = await shared(content, { maxDownloads: 3 });
  const results = await Promise.all(Array.from({ length: 12 }, () => fetchBytes(url)));
  const ok = results.filter((res) => res.status === 200);
  t.is(ok.length, 3);
  for (const res of ok) t.true(res.bytes.equals(content));
  t.deepEqual(
    results.filter((res) => res.status !== 200).map((res) => [res.status, res.body?.error_code]),
    Array.from({ length: 9 }, () => [410, 'SVC-SYS-3006']),
  );
  t.is(await downloadCount(link.id), 3);
});

test('a download cut off midway is not counted: its slot is given back (SHARE_ACCESS complete: false), and the one allowed download still works', async (t) => {
  // large enough that the socket buffers between dms-svc, the gateway and the client cannot hold it
  const content = randomBytes(64 * 1024 * 1024);
  const { crProcessId, link, url } = await shared(content, { maxDownloads: 1 });
  await new Promise<void>((resolve, reject) => {
    const req = request(new URL(url, platform.url), (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', () => undefined);
    req.end();
  });
  let count = -1;
  for (let i = 0; i < 50 && count !== 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    count = await downloadCount(link.id);
  }
  t.is(count, 0);
  const cut = (await auditOf(crProcessId, link.id)).filter((row) => row.action === 'SHARE_ACCESS');
  t.is(cut.length, 1);
  t.like(JSON.parse(cut[0].details), { complete: false });
  const whole = await fetchBytes(url);
  t.is(whole.status, 200);
  t.true(whole.bytes.equals(content));
  t.is(await downloadCount(link.id), 1);
  t.is((await api('GET', url)).status, 410);
});

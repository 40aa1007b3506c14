/**
 * The byte path of documents (docs/interface.md#files, docs/interface.md#records): uploads streamed
 * through the gateway to dms-svc, signed downloads with ranges, soft delete, and who may touch a file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import test from 'ava';
import { parse as parseDisposition } from 'content-disposition';
import pg from 'pg';
import { adminSession, create, createAccount, unique, userWithRoles } from './helpers/factories.ts';
import { assertInvalid } from './helpers/error-body.ts';
import { signDownload, storageNames, upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const admin = async () => (await adminSession()).token;

async function download(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${platform.url}${url}`, { method, headers });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function uploaded(content: Uint8Array | string, fileName = 'file.bin', extra: Partial<Parameters<typeof upload>[0]> = {}) {
  const token = await admin();
  const crProcessId = extra.crProcessId ?? (await createAccount()).crProcessId;
  const res = await upload({ token, crProcessId, content, fileName, ...extra });
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${res.text}`);
  const url = await api('GET', `/api/dms-file/${res.body.fileId}/download-url`, { token });
  return { token, crProcessId, body: res.body, url: url.body.url as string };
}

for (const [what, content, name] of [
  ['an empty file', new Uint8Array(0), 'empty.txt'],
  ['a binary of 3 MiB', randomBytes(3 * 1024 * 1024), 'blob.bin'],
  ['a non-ASCII name', new TextEncoder().encode('merhaba dünya'), 'rapor şubat ğüçö €.txt'],
] as const) {
  test(`upload and download of ${what} round-trip byte for byte; checksum is the SHA-256, ETag the checksum`, async (t) => {
    const { token, body, url } = await uploaded(content, name);
    t.like(body, { originalFileName: name, fileSize: content.length });
    t.regex(body.storedFileName, /^[0-9a-f-]{36}$/);
    const record = await api('GET', `/api/dms-file/${body.fileId}`, { token });
    t.is(record.body.checksum, sha256(content));
    t.regex(record.body.downloadUrl, new RegExp(`^/api/dms-file/download/${body.fileId}\\?token=[\\w-]+&expires=\\d+&inline=false$`));
    const got = await download(url);
    t.is(got.status, 200);
    t.deepEqual(Buffer.from(got.bytes), Buffer.from(content));
    t.is(got.headers.get('etag'), `"${sha256(content)}"`);
    t.is(got.headers.get('content-length'), String(content.length));
    t.is(got.headers.get('x-content-type-options'), 'nosniff');
    t.is(got.headers.get('cache-control'), 'no-store');
    t.is(got.headers.get('accept-ranges'), 'bytes');
    const disposition = parseDisposition(got.headers.get('content-disposition') ?? '');
    t.is(disposition.type, 'attachment');
    t.is(disposition.parameters.filename, name, "filename*=UTF-8''... where the name is not ASCII (RFC 6266)");
  });
}

test('mimeType is sniffed from the content (a PNG sent as text/plain), else the part header; originalFileName loses any path', async (t) => {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  const sniffed = await uploaded(png, 'C:\\Users\\x\\picture.txt', { type: 'text/plain' });
  t.like(sniffed.body, { mimeType: 'image/png', originalFileName: 'picture.txt' });
  const declared = await uploaded('a,b\n1,2\n', 'dir/sub/data.csv', { type: 'text/csv' });
  t.like(declared.body, { mimeType: 'text/csv', originalFileName: 'data.csv' });
  t.is((await download(declared.url)).headers.get('content-type'), 'text/csv');
});

// a name that shows other than it reads: "a\u202Egnp.exe" is displayed as "aexe.png"
const DIRECTION_CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];

test('a file name holding a text-direction control (U+202E "a\u202Egnp.exe", every embedding, override, isolate and mark) is 400 SVC-SYS-2001 naming originalFileName, by the form and by tus; nothing is kept', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  for (const control of DIRECTION_CONTROLS) {
    const fileName = `a${control}gnp.exe`;
    const form = await upload({ token, crProcessId, content: 'MZ not really', fileName });
    assertInvalid(t, form, 'originalFileName');
    t.is(form.body.message, 'Field originalFileName holds a text-direction control character', `U+${control.codePointAt(0)?.toString(16)}`);
    const metadata = [`filename ${Buffer.from(fileName).toString('base64')}`, `crProcessId ${Buffer.from(String(crProcessId)).toString('base64')}`].join(',');
    const tus = await fetch(`${platform.url}/api/dms-file/tus`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-length': '13', 'upload-metadata': metadata },
    });
    const text = await tus.text();
    assertInvalid(t, { status: tus.status, text, body: JSON.parse(text) }, 'originalFileName');
  }
  const turkish = await upload({
    token,
    crProcessId,
    content: 'ok',
    fileName: 'rapor şubat ğüçö.txt',
    headers: { 'accept-language': 'tr' },
    type: 'text/plain',
  });
  t.is(turkish.status, 200, 'a name without them is kept');
  const refusedInTurkish = await upload({ token, crProcessId, content: 'x', fileName: 'a\u202Egnp.exe', headers: { 'accept-language': 'tr' } });
  t.is(refusedInTurkish.body.message, 'originalFileName alanı bir yazı yönü denetim karakteri içeriyor');
  const rows = await api('POST', '/api/dms-file/list', { token, body: { filter: { crProcessId } } });
  t.deepEqual(
    rows.body.content.map((file: { originalFileName: string }) => file.originalFileName),
    ['rapor şubat ğüçö.txt'],
    'the refused uploads left no record',
  );
});

test('a second upload with the same bytes in the tenant names the first as duplicateOfFileId', async (t) => {
  const content = `dup ${unique()}`;
  const first = await uploaded(content);
  const second = await uploaded(content, 'again.txt', { crProcessId: first.crProcessId });
  t.is(second.body.duplicateOfFileId, first.body.fileId);
  t.false('duplicateOfFileId' in first.body);
});

test('ranges: first byte, last byte, suffix, open-ended give 206 with Content-Range; beyond the end and any range of an empty file 416 bytes */size', async (t) => {
  const content = randomBytes(1000);
  const { url } = await uploaded(content);
  for (const [range, start, end] of [
    ['bytes=0-0', 0, 0],
    ['bytes=999-999', 999, 999],
    ['bytes=-10', 990, 999],
    ['bytes=500-', 500, 999],
    ['bytes=10-2000', 10, 999],
  ] as const) {
    const got = await download(url, { range });
    t.is(got.status, 206, range);
    t.is(got.headers.get('content-range'), `bytes ${start}-${end}/1000`, range);
    t.deepEqual(Buffer.from(got.bytes), content.subarray(start, end + 1), range);
  }
  const beyond = await download(url, { range: 'bytes=1000-' });
  t.is(beyond.status, 416);
  t.is(beyond.headers.get('content-range'), 'bytes */1000');
  const empty = await uploaded(new Uint8Array(0));
  const none = await download(empty.url, { range: 'bytes=0-0' });
  t.is(none.status, 416);
  t.is(none.headers.get('content-range'), 'bytes */0');
});

test('HEAD of a download answers the headers of GET and no body; inline=true gives Content-Disposition inline (for a type safe to show)', async (t) => {
  const { token, body } = await uploaded('head me', 'h.txt', { type: 'text/plain' });
  const inline = await api('GET', `/api/dms-file/${body.fileId}/download-url?inline=true`, { token });
  t.is(inline.status, 200, inline.text);
  t.regex(inline.body.expiresAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  const head = await download(inline.body.url, {}, 'HEAD');
  t.is(head.status, 200);
  t.is(head.bytes.length, 0);
  t.is(head.headers.get('content-length'), '7');
  t.regex(head.headers.get('content-disposition') ?? '', /^inline; /);
});

test('a changed or missing id, expires, inline or token is 403 SVC-SYS-3003; a past expires (signed) is 403 SVC-SYS-3004', async (t) => {
  const { url, body } = await uploaded('signed');
  const parsed = new URL(url, platform.url);
  const q = Object.fromEntries(parsed.searchParams);
  const other = (await uploaded('other')).body.fileId;
  // the first character carries six whole bits of the HMAC, so any other one changes it (a changed
  // last character could equal the original, or differ only in bits base64url decoding drops)
  const token = q.token ?? '';
  const changedToken = `${token.startsWith('A') ? 'B' : 'A'}${token.slice(1)}`;
  const tampered = [
    `/api/dms-file/download/${other}?${parsed.searchParams}`,
    `/api/dms-file/download/${body.fileId}?token=${q.token}&expires=${Number(q.expires) + 1}&inline=false`,
    `/api/dms-file/download/${body.fileId}?token=${q.token}&expires=${q.expires}&inline=true`,
    `/api/dms-file/download/${body.fileId}?token=${changedToken}&expires=${q.expires}&inline=false`,
    `/api/dms-file/download/${body.fileId}?expires=${q.expires}&inline=false`,
    `/api/dms-file/download/${body.fileId}?token=${q.token}&inline=false`,
  ];
  for (const path of tampered) {
    const res = await api('GET', path);
    t.is(res.status, 403, path);
    t.is(res.body.error_code, 'SVC-SYS-3003', path);
  }
  const past = Math.floor(Date.now() / 1000) - 10;
  const expired = await api('GET', `/api/dms-file/download/${body.fileId}?token=${signDownload(body.fileId, past, false)}&expires=${past}&inline=false`, {
    headers: { 'accept-language': 'tr' },
  });
  t.is(expired.status, 403);
  t.is(expired.body.error_code, 'SVC-SYS-3004');
  t.is(expired.body.message, 'İndirme bağlantısının süresi doldu');
});

test('soft delete: a deleted file is 404 on get and download, and gone from list, search and by-entity', async (t) => {
  const { token, crProcessId, body, url } = await uploaded(`soft ${unique()}`, 'soft-delete-me.txt', {
    fields: { entityType: 'contract', entityId: '77', description: 'soft' },
  });
  const search = () => api('GET', `/api/dms-file/search?crProcessId=${crProcessId}&searchTerm=soft-delete`, { token });
  const byEntity = () => api('GET', `/api/dms-file/by-entity?entityType=contract&entityId=77`, { token });
  const list = () => api('POST', '/api/dms-file/list', { token, body: { filter: { crProcessId } } });
  t.deepEqual(
    (await search()).body.map((f: { id: number }) => f.id),
    [body.fileId],
  );
  t.true((await byEntity()).body.some((f: { id: number }) => f.id === body.fileId));
  t.is((await list()).body.totalElements, 1);
  t.is((await api('DELETE', `/api/dms-file/${body.fileId}`, { token })).status, 204);
  t.is((await api('GET', `/api/dms-file/${body.fileId}`, { token })).status, 404);
  t.is((await api('GET', `/api/dms-file/${body.fileId}/download-url`, { token })).status, 404);
  const gone = await download(url);
  t.is(gone.status, 404);
  t.deepEqual((await search()).body, []);
  t.false((await byEntity()).body.some((f: { id: number }) => f.id === body.fileId));
  t.is((await list()).body.totalElements, 0);
});

test('file search folds the dotted and dotless I: IŞIK, ışık and işik find "Işık" in a name, a description or tags; % and _ stay literal', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const named = await uploaded('a', 'Işık raporu.txt', { crProcessId });
  const described = await uploaded('b', 'plain.txt', { crProcessId, fields: { description: 'IŞIK deposu' } });
  const tagged = await uploaded('c', 'other.txt', { crProcessId, fields: { tags: 'fatura,ışık' } });
  const percent = await uploaded('d', 'rate 100%_x.txt', { crProcessId });
  await uploaded('e', 'rate 1000Ax.txt', { crProcessId });
  const search = async (term: string) =>
    (await api('GET', `/api/dms-file/search?crProcessId=${crProcessId}&searchTerm=${encodeURIComponent(term)}`, { token })).body.map(
      (f: { id: number }) => f.id,
    );
  const all = [named.body.fileId, described.body.fileId, tagged.body.fileId];
  for (const term of ['IŞIK', 'ışık', 'işik', 'Işık']) t.deepEqual(await search(term), all, term);
  const listed = await api('POST', '/api/dms-file/list', { token, body: { searchTerm: 'IŞIK', filter: { crProcessId } } });
  t.deepEqual(
    listed.body.content.map((f: { id: number }) => f.id),
    all,
    "the list's searchTerm folds them too",
  );
  t.deepEqual(await search('0%_'), [percent.body.fileId]);
  t.deepEqual(await search('%'), [percent.body.fileId]);
});

test('PUT /api/dms-file/{id}/category?categoryId= moves the file and raises its version', async (t) => {
  const { token, body, crProcessId } = await uploaded('move me');
  const category = await create('dms-category', { crProcessId, categoryName: unique('Move target ') });
  const moved = await api('PUT', `/api/dms-file/${body.fileId}/category?categoryId=${category.id}`, { token });
  t.is(moved.status, 200, moved.text);
  t.like(moved.body, { id: body.fileId, categoryId: category.id, version: 1 });
});

test('an upload cut off midway leaves no file in DMS_STORAGE_DIR and no row', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const before = new Set(await storageNames());
  const boundary = 'cutoff-boundary';
  await new Promise<void>((resolve) => {
    const url = new URL('/api/dms-file/upload', platform.url);
    const req = request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(10 * 1024 * 1024) },
    });
    req.on('error', () => resolve());
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="crProcessId"\r\n\r\n${crProcessId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n`,
    );
    req.write(randomBytes(256 * 1024), () =>
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300),
    );
  });
  // other tests upload meanwhile: a new name on disk is left over when no row names it
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  let leftOver: string[] = [];
  try {
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const fresh = (await storageNames()).filter((name) => !before.has(name));
      const rows = await db.query<{ stored_file_name: string }>('select stored_file_name from dms.dms_file where stored_file_name = any($1)', [fresh]);
      const named = new Set(rows.rows.map((row) => row.stored_file_name));
      leftOver = fresh.filter((name) => !named.has(name));
      if (leftOver.length === 0) break;
    }
  } finally {
    await db.end();
  }
  t.deepEqual(leftOver, []);
  const listed = await api('POST', '/api/dms-file/list', { token, body: { filter: { crProcessId } } });
  t.is(listed.body.totalElements, 0);
});

test('two concurrent uploads both land, each with its own bytes', async (t) => {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const [a, b] = [randomBytes(512 * 1024), randomBytes(512 * 1024)];
  const [ra, rb] = await Promise.all([upload({ token, crProcessId, content: a }), upload({ token, crProcessId, content: b })]);
  t.is(ra.status, 200, ra.text);
  t.is(rb.status, 200, rb.text);
  t.not(ra.body.storedFileName, rb.body.storedFileName);
  for (const [res, bytes] of [
    [ra, a],
    [rb, b],
  ] as const) {
    const url = await api('GET', `/api/dms-file/${res.body.fileId}/download-url`, { token });
    t.deepEqual(Buffer.from((await download(url.body.url)).bytes), bytes);
  }
});

test("upload needs dms-file:write (403 SVC-SYS-1003), a token (401 SVC-SYS-1001), and names only the user's own tenant (403)", async (t) => {
  const account = await createAccount();
  const other = await createAccount();
  const [reader, writer] = await Promise.all([userWithRoles(account, ['dms-file:read']), userWithRoles(account, ['dms-file:write', 'dms-file:read'])]);
  const denied = await upload({ token: reader.token, crProcessId: account.crProcessId, content: 'x' });
  t.is(denied.status, 403, denied.text);
  t.is(denied.body.error_code, 'SVC-SYS-1003');
  const foreign = await upload({ token: writer.token, crProcessId: other.crProcessId, content: 'x' });
  t.is(foreign.status, 403, foreign.text);
  const anonymous = await upload({ token: 'not-a-token', crProcessId: account.crProcessId, content: 'x' });
  t.is(anonymous.status, 401);
  t.is(anonymous.body.error_code, 'SVC-SYS-1001');
  const ok = await upload({ token: writer.token, crProcessId: account.crProcessId, content: 'x' });
  t.is(ok.status, 200, ok.text);
});

test('a user of tenant A never reads, gets a URL for, moves, updates or deletes a file of B: 404', async (t) => {
  const a = await createAccount();
  const content = `of B ${unique()}`;
  const { token, body, url } = await uploaded(content);
  const before = await api('GET', `/api/dms-file/${body.fileId}`, { token });
  t.is(before.status, 200, before.text);
  const user = await userWithRoles(a, ['dms-file:read', 'dms-file:write', 'dms-file:delete']);
  for (const [method, path, request] of [
    ['GET', `/api/dms-file/${body.fileId}`, undefined],
    ['GET', `/api/dms-file/${body.fileId}/download-url`, undefined],
    ['PUT', `/api/dms-file/${body.fileId}/category?categoryId=3`, undefined],
    ['PUT', `/api/dms-file/${body.fileId}`, { version: 0, description: 'taken' }],
    ['DELETE', `/api/dms-file/${body.fileId}`, undefined],
  ] as const) {
    const res = await api(method, path, { token: user.token, body: request });
    t.is(res.status, 404, `${method} ${path}: ${res.text}`);
    t.is(res.body.error_code, 'SVC-SYS-4001');
  }
  // B's file as B's administrator sees it: the same row at the same version, the same bytes.
  const after = await api('GET', `/api/dms-file/${body.fileId}`, { token });
  t.is(after.status, 200, after.text);
  // downloadUrl is signed afresh on each read, its expiry in windows of the URL lifetime: not the row
  const row = ({ downloadUrl: _url, ...fields }: Record<string, unknown>) => fields;
  t.deepEqual(row(after.body), row(before.body), 'the row (version, category, description, deletion) is unchanged');
  const got = await download(url);
  t.is(got.status, 200);
  t.is(Buffer.from(got.bytes).toString(), content, 'the bytes are unchanged');
});

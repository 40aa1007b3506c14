/**
 * How stored bytes are served, through the gateway's relay (docs/adr/0073-stored-bytes-never-act-on-the-origin.md, Download,
 * and "Stored bytes never act on the origin"; docs/interface.md#files: "inline=true gives
 * Content-Disposition: inline, else attachment ... Single ranges (bytes=a-b, bytes=a-, bytes=-n)
 * give 206 with Content-Range; an unsatisfiable one gives 416"). The project's own rule: "a
 * malformed or multi-range header gets the whole file (200)"; "Every GET of a signed URL that will
 * send bytes is one DOWNLOAD row" — a 416 sends none.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { parse as parseDisposition } from 'content-disposition';
import { adminSession, create, createAccount } from './helpers/factories.ts';
import { upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;
const SANDBOX = "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'";
const MEDIA_SANDBOX = "sandbox allow-same-origin; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'";
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A WAV file of `samples` bytes of 8-bit mono sound. */
function wav(samples: number): Buffer {
  const bytes = Buffer.alloc(44 + samples, 128);
  bytes.write('RIFF', 0);
  bytes.writeUInt32LE(36 + samples, 4);
  bytes.write('WAVEfmt ', 8);
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(1, 22);
  bytes.writeUInt32LE(8000, 24);
  bytes.writeUInt32LE(8000, 28);
  bytes.writeUInt16LE(1, 32);
  bytes.writeUInt16LE(8, 34);
  bytes.write('data', 36);
  bytes.writeUInt32LE(samples, 40);
  return bytes;
}

async function fetchBytes(path: string, init: RequestInit = {}) {
  const response = await fetch(`${platform.url}${path}`, init);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** An upload of a fresh tenant, its signed URLs (attachment and inline) and a share link to it. */
async function stored(content: Uint8Array | string, fileName: string, type?: string) {
  const token = await admin();
  const { crProcessId } = await createAccount();
  const res = await upload({ token, crProcessId, content, fileName, ...(type ? { type } : {}) });
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${res.text}`);
  const fileId = res.body.fileId as number;
  const signed = async (inline: boolean) => (await api('GET', `/api/dms-file/${fileId}/download-url?inline=${inline}`, { token })).body.url as string;
  const link = await create('dms-share-link', { crProcessId, fileId });
  return {
    token,
    crProcessId,
    fileId,
    mimeType: res.body.mimeType as string,
    attachment: await signed(false),
    inline: await signed(true),
    shared: link.url as string,
  };
}

const dispositionOf = (headers: Headers) => parseDisposition(headers.get('content-disposition') ?? '').type;

for (const [what, content, fileName, type, mimeType] of [
  ['HTML', '<!doctype html><script>alert(1)</script>', 'a.html', 'text/html', 'text/html'],
  ['SVG', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'a.svg', 'image/svg+xml', 'image/svg+xml'],
  ['XHTML', '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>', 'a.xhtml', 'application/xhtml+xml', 'application/xhtml+xml'],
  [
    'XML (sniffed from its declaration)',
    '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
    'a.xml',
    'text/xml',
    'application/xml',
  ],
  ['a type nobody named', new Uint8Array([1, 2, 3]), 'a.bin', undefined, 'application/octet-stream'],
] as const) {
  test(`${what} is an attachment even from an inline=true URL, with the sandbox policy; the share link's too, and HEAD says the same`, async (t) => {
    const file = await stored(content, fileName, type);
    t.is(file.mimeType, mimeType);
    for (const [how, path] of [
      ['inline URL', file.inline],
      ['attachment URL', file.attachment],
      ['share link', file.shared],
    ] as const) {
      for (const method of ['GET', 'HEAD']) {
        const got = await fetchBytes(path, { method });
        t.is(got.status, 200, `${how} ${method}`);
        t.is(got.headers.get('content-type'), mimeType, `${how} ${method}`);
        t.is(dispositionOf(got.headers), 'attachment', `${how} ${method}`);
        t.is(got.headers.get('content-security-policy'), SANDBOX, `${how} ${method}`);
        t.is(got.headers.get('cross-origin-resource-policy'), 'same-site', `${how} ${method}`);
        t.is(got.headers.get('referrer-policy'), 'no-referrer', `${how} ${method}`);
        t.is(got.headers.get('x-content-type-options'), 'nosniff', `${how} ${method}`);
      }
    }
  });
}

// a type a browser runs or applies when a page of the origin names the URL (<script src>, a stylesheet,
// a worker, an import, an XSLT): never served as itself, so nosniff makes the browser refuse it
const WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
for (const [what, content, fileName, type] of [
  ['JavaScript', "document.title = 'ran';", 'a.js', 'text/javascript'],
  ['JavaScript as application/javascript', "document.title = 'ran';", 'a.js', 'application/javascript'],
  ['JavaScript as application/x-javascript', "document.title = 'ran';", 'a.js', 'application/x-javascript'],
  ['JavaScript as text/ecmascript', "document.title = 'ran';", 'a.js', 'text/ecmascript'],
  ['JavaScript as text/javascript1.5', "document.title = 'ran';", 'a.js', 'text/javascript1.5'],
  ['JavaScript as text/jscript', "document.title = 'ran';", 'a.js', 'text/jscript'],
  ['JavaScript as text/livescript', "document.title = 'ran';", 'a.js', 'text/livescript'],
  ['a JavaScript module', 'export const ran = true;', 'a.mjs', 'application/javascript+module'],
  ['a stylesheet', 'html { background: red; }', 'a.css', 'text/css'],
  ['an XSLT stylesheet', '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"/>', 'a.xsl', 'text/xsl'],
  [
    'an XSLT stylesheet as application/xslt+xml',
    '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"/>',
    'a.xslt',
    'application/xslt+xml',
  ],
  ['WebAssembly (sniffed)', WASM, 'a.wasm', undefined],
] as const) {
  test(`${what} is served as application/octet-stream with nosniff from the signed inline and attachment URLs and the share link, GET and HEAD, and its record keeps its type`, async (t) => {
    const file = await stored(content, fileName, type);
    t.is(file.mimeType, type ?? 'application/wasm', 'the record names what was uploaded');
    for (const [how, path] of [
      ['inline URL', file.inline],
      ['attachment URL', file.attachment],
      ['share link', file.shared],
    ] as const) {
      for (const method of ['GET', 'HEAD']) {
        const got = await fetchBytes(path, { method });
        t.is(got.status, 200, `${how} ${method}`);
        t.is(got.headers.get('content-type'), 'application/octet-stream', `${how} ${method}`);
        t.is(got.headers.get('x-content-type-options'), 'nosniff', `${how} ${method}`);
        t.is(dispositionOf(got.headers), 'attachment', `${how} ${method}`);
        if (method === 'GET') t.deepEqual(got.bytes, Buffer.from(content), `${how}: the bytes are the file's`);
      }
    }
  });
}

for (const [what, content, fileName, type, mimeType, policy] of [
  ['a PNG', PNG, 'a.png', 'image/png', 'image/png', SANDBOX],
  ['a PDF', '%PDF-1.4\n%%EOF\n', 'a.pdf', 'application/pdf', 'application/pdf', SANDBOX],
  ['plain text', 'just words', 'a.txt', 'text/plain', 'text/plain', SANDBOX],
  // its player fetches the file again: the media document keeps its origin, still without script
  ['a WAV', wav(800), 'a.wav', 'audio/wav', 'audio/wav', MEDIA_SANDBOX],
] as const) {
  test(`${what} is inline from an inline=true URL (sandboxed), an attachment otherwise`, async (t) => {
    const file = await stored(content, fileName, type);
    t.is(file.mimeType, mimeType);
    const inline = await fetchBytes(file.inline);
    t.is(dispositionOf(inline.headers), 'inline');
    t.is(inline.headers.get('content-security-policy'), policy);
    t.deepEqual(inline.bytes, Buffer.from(content));
    for (const path of [file.attachment, file.shared]) {
      const got = await fetchBytes(path);
      t.is(dispositionOf(got.headers), 'attachment');
      t.is(got.headers.get('content-security-policy'), SANDBOX);
    }
  });
}

test('"a malformed or multi-range header gets the whole file (200)": bytes=5-2 (last-pos below first-pos, RFC 9110 §14.1.1) and bytes=0-5,3-10 (two ranges, judged before merging), from a signed URL and a share link alike', async (t) => {
  const content = randomBytes(1000);
  const file = await stored(content, 'ranges.bin');
  for (const [how, path] of [
    ['signed URL', file.attachment],
    ['share link', file.shared],
  ] as const) {
    for (const range of ['bytes=5-2', 'bytes=0-5,3-10', 'bytes=0-5, 10-20', 'bytes=0-5,-1', 'bytes=a-b', 'bytes 0-5', 'items=0-5']) {
      const got = await fetchBytes(path, { headers: { range } });
      t.is(got.status, 200, `${how} ${range}`);
      t.is(got.headers.get('content-range'), null, `${how} ${range}`);
      t.true(got.bytes.equals(content), `${how} ${range}: the whole file`);
    }
    const part = await fetchBytes(path, { headers: { range: 'bytes=3-10' } });
    t.is(part.status, 206, how);
    t.is(part.headers.get('content-range'), 'bytes 3-10/1000', how);
    t.true(part.bytes.equals(content.subarray(3, 11)), how);
    const beyond = await fetchBytes(path, { headers: { range: 'bytes=1000-' } });
    t.is(beyond.status, 416, how);
    t.is(beyond.headers.get('content-range'), 'bytes */1000', how);
  }
});

test('"Every GET of a signed URL that will send bytes is one DOWNLOAD row": a 416 sends none and is not audited, a 206 is', async (t) => {
  const file = await stored(randomBytes(100), 'audited.bin');
  const downloads = async () => {
    const res = await api('POST', '/api/dms-audit-log/list', {
      token: file.token,
      body: { size: 100, filter: { crProcessId: file.crProcessId, fileId: file.fileId, action: 'DOWNLOAD' } },
    });
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
    return res.body.content as any[];
  };
  t.is((await fetchBytes(file.attachment, { headers: { range: 'bytes=100-' } })).status, 416);
  t.is((await fetchBytes(file.attachment, { headers: { range: 'bytes=-0' } })).status, 416);
  t.deepEqual(await downloads(), [], 'a 416 is not a download');
  t.is((await fetchBytes(file.attachment, { headers: { range: 'bytes=0-0' } })).status, 206);
  const rows = await downloads();
  t.is(rows.length, 1);
  t.deepEqual(JSON.parse(rows[0].details), { inline: false, range: 'bytes=0-0' });
});

/**
 * The tenant's dms-account-config limits on uploads (docs/interface.md#files): "A file over ... the tenant's
 * maxFileSize is 413 SVC-SYS-3001, and nothing of it is kept. A type outside allowedMimeTypes is 415
 * SVC-SYS-3002. A tenant over storageQuotaBytes is 413 SVC-SYS-3007."
 */
import test from 'ava';
import { adminSession, create, freshTenant } from './helpers/factories.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { storageNames, upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A fresh tenant with a dms-account-config of these limits. */
async function tenantWith(limits: Record<string, unknown>): Promise<number> {
  const crProcessId = freshTenant();
  await create('dms-account-config', { crProcessId, ...limits });
  return crProcessId;
}

async function filesOf(crProcessId: number): Promise<any[]> {
  const res = await api('POST', '/api/dms-file/list', { token: await admin(), body: { size: 100, filter: { crProcessId } } });
  return res.body.content;
}

async function uploadRowsOf(crProcessId: number): Promise<any[]> {
  const res = await api('POST', '/api/dms-audit-log/list', { token: await admin(), body: { size: 100, filter: { crProcessId, action: 'UPLOAD' } } });
  return res.body.content;
}

const temporaryFiles = async () => (await storageNames()).filter((name) => name.startsWith('.upload-'));

/** Temporary files made since `before` that are still there after 3 s (uploads of other tests come and go meanwhile). */
async function leftSince(before: ReadonlySet<string>): Promise<string[]> {
  const seen = (await temporaryFiles()).filter((name) => !before.has(name));
  if (seen.length === 0) return [];
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const now = new Set(await temporaryFiles());
  return seen.filter((name) => now.has(name));
}

/** The form with the file part before crProcessId: the tenant is known only once the bytes have passed. */
async function uploadFileFirst(token: string, crProcessId: number, content: Uint8Array) {
  const form = new FormData();
  form.set('file', new Blob([content]), 'late-tenant.bin');
  form.set('crProcessId', String(crProcessId));
  const response = await fetch(`${platform.url}/api/dms-file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, body: (await response.json()) as any, text: '' };
}

test('"a file over the tenant\'s maxFileSize is 413 SVC-SYS-3001, and nothing of it is kept"; one at the limit is stored', async (t) => {
  const token = await admin();
  const tenant = await tenantWith({ maxFileSize: 100 });
  const before = new Set(await temporaryFiles());
  const over = await upload({ token, crProcessId: tenant, content: new Uint8Array(101) });
  assertErrorBody(t, over, 413, 'SVC-SYS-3001');
  // the tenant named after the file: the same answer once the bytes have passed
  const late = await uploadFileFirst(token, tenant, new Uint8Array(5000));
  t.is(late.status, 413);
  t.is(late.body.error_code, 'SVC-SYS-3001');
  t.deepEqual(await filesOf(tenant), []);
  t.deepEqual(await uploadRowsOf(tenant), [], 'a refused upload is not audited as one');
  t.deepEqual(await leftSince(before), [], 'no temporary file left');

  const atLimit = await upload({ token, crProcessId: tenant, content: new Uint8Array(100) });
  t.is(atLimit.status, 200, atLimit.text);
  t.is(atLimit.body.fileSize, 100);
});

test('"a type outside allowedMimeTypes is 415 SVC-SYS-3002": the sniffed type is compared, not the one the client declares; empty allows any', async (t) => {
  const token = await admin();
  const tenant = await tenantWith({ allowedMimeTypes: 'application/pdf, IMAGE/PNG' });
  const text = await upload({ token, crProcessId: tenant, content: 'plain words', type: 'text/plain' });
  assertErrorBody(t, text, 415, 'SVC-SYS-3002');
  const disguised = await upload({ token, crProcessId: tenant, content: 'not a pdf at all', fileName: 'x.pdf', type: 'text/plain' });
  assertErrorBody(t, disguised, 415, 'SVC-SYS-3002');
  // a PNG declared as text/plain is a PNG
  const png = await upload({ token, crProcessId: tenant, content: PNG, fileName: 'picture.txt', type: 'text/plain' });
  t.is(png.status, 200, png.text);
  t.is(png.body.mimeType, 'image/png');
  t.is((await filesOf(tenant)).length, 1);

  const anyType = await tenantWith({ allowedMimeTypes: '' });
  t.is((await upload({ token, crProcessId: anyType, content: 'anything', type: 'text/plain' })).status, 200);
});

test('"text declared application/pdf is not a PDF": a declared type whose signature file-type knows, over content it does not recognise, is stored as application/octet-stream and judged so', async (t) => {
  const token = await admin();
  const pdfOnly = await tenantWith({ allowedMimeTypes: 'application/pdf' });
  // plain text, an HTML page, plain text declared in capitals
  for (const [content, type] of [
    ['plain words', 'application/pdf'],
    ['<!doctype html><script>alert(1)</script>', 'application/pdf'],
    ['plain words', 'APPLICATION/PDF'],
  ] as const) {
    assertErrorBody(t, await upload({ token, crProcessId: pdfOnly, content, fileName: 'claimed.pdf', type }), 415, 'SVC-SYS-3002');
  }
  t.deepEqual(await filesOf(pdfOnly), [], 'a refused upload keeps nothing');
  const pdf = await upload({ token, crProcessId: pdfOnly, content: '%PDF-1.4\n%%EOF\n', fileName: 'real.pdf', type: 'application/pdf' });
  t.is(pdf.status, 200, pdf.text);
  t.is(pdf.body.mimeType, 'application/pdf');

  // without limits the claim is kept as what it is: bytes of unknown type
  const open = freshTenant();
  const claimed = await upload({ token, crProcessId: open, content: 'plain words', fileName: 'claimed.png', type: 'image/png' });
  t.is(claimed.body.mimeType, 'application/octet-stream');
  // a declared type file-type has no signature for is believed; so is XML, whose declaration is optional
  t.is((await upload({ token, crProcessId: open, content: 'a,b\n', fileName: 'a.csv', type: 'text/csv' })).body.mimeType, 'text/csv');
  t.is((await upload({ token, crProcessId: open, content: '<a/>', fileName: 'a.xml', type: 'application/xml' })).body.mimeType, 'application/xml');
});

test('"a tenant over storageQuotaBytes is 413 SVC-SYS-3007": the live files count, a deleted one no longer does', async (t) => {
  const token = await admin();
  const tenant = await tenantWith({ storageQuotaBytes: 1000 });
  const first = await upload({ token, crProcessId: tenant, content: new Uint8Array(600).fill(1) });
  t.is(first.status, 200, first.text);
  const second = await upload({ token, crProcessId: tenant, content: new Uint8Array(600).fill(2) });
  assertErrorBody(t, second, 413, 'SVC-SYS-3007');
  const exact = await upload({ token, crProcessId: tenant, content: new Uint8Array(400).fill(3) });
  t.is(exact.status, 200, 'up to the quota exactly');
  t.is((await api('DELETE', `/api/dms-file/${first.body.fileId}`, { token })).status, 204);
  t.is((await upload({ token, crProcessId: tenant, content: new Uint8Array(600).fill(4) })).status, 200);
  t.is(
    (await filesOf(tenant)).reduce((sum, file) => sum + file.fileSize, 0),
    1000,
  );
});

test('concurrent uploads of one tenant against storageQuotaBytes never pass it together: two of 600 against 1000, then five of 300', async (t) => {
  const token = await admin();
  const two = await tenantWith({ storageQuotaBytes: 1000 });
  const pair = await Promise.all([1, 2].map((n) => upload({ token, crProcessId: two, content: new Uint8Array(600).fill(n) })));
  t.deepEqual(pair.map((res) => res.status).sort(), [200, 413], pair.map((res) => res.text).join(' | '));
  t.is(pair.find((res) => res.status === 413)?.body.error_code, 'SVC-SYS-3007');
  t.is((await filesOf(two)).length, 1);

  const five = await tenantWith({ storageQuotaBytes: 1000 });
  const all = await Promise.all([1, 2, 3, 4, 5].map((n) => upload({ token, crProcessId: five, content: new Uint8Array(300).fill(n) })));
  t.is(all.filter((res) => res.status === 200).length, 3, all.map((res) => res.status).join(','));
  t.true(all.filter((res) => res.status !== 200).every((res) => res.body.error_code === 'SVC-SYS-3007'));
  t.is(
    (await filesOf(five)).reduce((sum, file) => sum + file.fileSize, 0),
    900,
  );
  t.is((await uploadRowsOf(five)).length, 3);
});

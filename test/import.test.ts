/**
 * Importing files into the registry's entities (docs/interface.md#import), through the real gateway
 * and services: upload → preview and mapping → dry run with every row's errors in the caller's
 * language → the import as a job of the entity's service worker, each record written as a create
 * would write it (its event, its history), "update by code", cancel, roles and tenants, and the
 * files refused with the platform's error body.
 */
import test from 'ava';
import { zipOf } from './helpers/zip-of.ts';
import type { ImportRun } from '@platform/client/schema.d.ts';
import ExcelJS from 'exceljs';
import { accountFor, adminSession, createPartner, freshTenant, unique, userWithRoles } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { assertErrorBody } from './helpers/error-body.ts';

/** An import run as the API document declares it. */
type Run = ImportRun;

async function upload(entity: string, crProcessId: number, name: string, content: Buffer | string, token: string) {
  const form = new FormData();
  form.append('crProcessId', String(crProcessId));
  form.append('file', new Blob([typeof content === 'string' ? Buffer.from(content) : new Uint8Array(content)]), name);
  const response = await fetch(`${platform.url}/api/import/${entity}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text, text };
}

/** Polls a run until it reaches one of `states` (a job of the worker). */
async function settled(entity: string, id: number, token: string, states = ['CHECKED', 'DONE', 'FAILED', 'CANCELLED'], lang = 'en'): Promise<Run> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const res = await api('GET', `/api/import/${entity}/${id}`, { token, headers: { 'accept-language': lang } });
    if (res.status !== 200) throw new Error(`get run: ${res.status} ${res.text}`);
    if (states.includes(res.body.status)) return res.body as Run;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${res.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function post(path: string, token: string, body?: unknown) {
  return api('POST', path, { token, ...(body === undefined ? { raw: '' } : { body }) });
}

test("a CSV with Turkish labels: preview, proposed mapping, dry run with each row's errors in Turkish, then the import", async (t) => {
  const { token } = await adminSession();
  const [tenant, other] = [freshTenant(), freshTenant()];
  // a country of the tenant by its code, one of another tenant with the same code is not found
  await api('POST', '/api/country', { token, body: { crProcessId: tenant, code: 'TR', name: 'Türkiye' } });
  await api('POST', '/api/country', { token, body: { crProcessId: other, code: 'DE', name: 'Deutschland' } });
  const existing = await createPartner(tenant);
  const codes = [unique('P-'), unique('P-'), unique('P-')];
  const csv = [
    'Ortak kodu;Ortak adı;Ortak türü;Ülke;Vergi numarası;Notlar',
    `${codes[0]};Birinci;Müşteri;TR;123;x`,
    `${codes[1]};İkinci;Tedarikçi;;;`,
    `${codes[1]};Yine ikinci;Müşteri;;;`,
    `${existing.partnerCode};Var olan;Müşteri;;;`,
    `${codes[2]};Üçüncü;Arkadaş;DE;;`,
    `${unique('P-')};${'u'.repeat(256)};Customer;;${'9'.repeat(40)};`,
    `;Kodsuz;Müşteri;;;`,
  ].join('\n');
  const uploaded = await upload('business-partner', tenant, 'ortaklar.csv', csv, token);
  t.is(uploaded.status, 201, uploaded.text);
  const run = uploaded.body as Run;
  t.like(run, { status: 'PREVIEW', totalRows: 7, header: ['Ortak kodu', 'Ortak adı', 'Ortak türü', 'Ülke', 'Vergi numarası', 'Notlar'] });
  t.deepEqual(run.mapping, ['partnerCode', 'partnerName', 'partnerType', 'countryId', 'taxNumber', null]);
  t.deepEqual(run.preview[0], [codes[0], 'Birinci', 'Müşteri', 'TR', '123', 'x']);

  t.is((await post(`/api/import/business-partner/${run.id}/check`, token)).status, 200);
  const checked = await settled('business-partner', run.id, token, ['CHECKED', 'FAILED'], 'tr');
  t.like(checked, { status: 'CHECKED', processed: 7, created: 2, failed: 5 });
  const byRow = (row: number) => checked.errors.filter((error) => error.row === row).map(({ field, code }) => `${field}:${code}`);
  t.deepEqual(byRow(2), []);
  t.deepEqual(byRow(3), []);
  t.deepEqual(byRow(4), ['partnerCode:SVC-SYS-4005']);
  t.deepEqual(byRow(5), ['partnerCode:SVC-SYS-4005']);
  t.deepEqual(byRow(6).sort(), ['countryId:SVC-SYS-2001', 'partnerType:SVC-SYS-2001']);
  t.deepEqual(byRow(7).sort(), ['partnerName:SVC-SYS-2001', 'taxNumber:SVC-SYS-2001']);
  t.deepEqual(byRow(8), ['partnerCode:SVC-SYS-2001']);
  // the platform's messages, in the reader's language
  t.regex(checked.errors.find((error) => error.row === 4)?.message ?? '', /dosyanın 3\. satırıyla aynı/);
  t.regex(checked.errors.find((error) => error.row === 6 && error.field === 'countryId')?.message ?? '', /DE kodlu ya da adlı bir kayıt yok/);
  t.regex(checked.errors.find((error) => error.row === 7 && error.field === 'partnerName')?.message ?? '', /255 karakterden uzun/);
  // nothing was written by the dry run
  const listed = await api('POST', '/api/business-partner/list', { token, body: { page: 0, size: 10, filter: { crProcessId: tenant } } });
  t.is(listed.body.totalElements, 1);

  // the error report: CSV in the reader's language
  const report = await fetch(`${platform.url}/api/import/business-partner/${run.id}/errors`, {
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
  });
  t.is(report.status, 200);
  t.regex(report.headers.get('content-type') ?? '', /^text\/csv/);
  t.regex(report.headers.get('content-disposition') ?? '', /^attachment;/);
  t.is(report.headers.get('x-content-type-options'), 'nosniff');
  const reportText = await report.text();
  t.true(reportText.startsWith('Row,Column,Field,Code,Message\n'), reportText);
  t.regex(reportText, /4,Ortak kodu,partnerCode,SVC-SYS-4005,Field partnerCode has the same value as row 3 of the file/);

  t.is((await post(`/api/import/business-partner/${run.id}/start`, token)).status, 200);
  const done = await settled('business-partner', run.id, token);
  t.like(done, { status: 'DONE', processed: 7, created: 2, failed: 5 });
  const after = await api('POST', '/api/business-partner/list', { token, body: { page: 0, size: 10, filter: { crProcessId: tenant } } });
  t.is(after.body.totalElements, 3);
  const first = after.body.content.find((partner: { partnerCode: string }) => partner.partnerCode === codes[0]);
  t.like(first, { partnerName: 'Birinci', partnerType: 'CUSTOMER', taxNumber: '123' });
  t.truthy(first.countryId);
  // its event and history, as a record created alone
  const history = await api('GET', `/api/business-partner/${first.id}/history`, { token });
  t.is(history.status, 200);
  t.is(history.body.content.length, 1);
  t.like(history.body.content[0], { type: 'business-partner.created', userCode: platform.adminUser, version: 0 });
});

test('the same file twice with update by code changes nothing the second time; a changed value updates its record', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const codes = [unique('P-'), unique('P-')];
  const csv = `partnerCode,partnerName,partnerType,status\n${codes[0]},One,CUSTOMER,aktif\n${codes[1]},Two,SUPPLIER,passive\n`;
  const importOnce = async (content: string): Promise<Run> => {
    const run = (await upload('business-partner', tenant, 'p.csv', content, token)).body as Run;
    t.is((await api('PUT', `/api/import/business-partner/${run.id}`, { token, body: { mapping: run.mapping, updateByCode: true } })).status, 200);
    t.is((await post(`/api/import/business-partner/${run.id}/start`, token)).status, 200);
    return settled('business-partner', run.id, token);
  };
  t.like(await importOnce(csv), { status: 'DONE', created: 2, updated: 0, unchanged: 0, failed: 0 });
  const before = await api('POST', '/api/business-partner/list', { token, body: { page: 0, size: 10, filter: { crProcessId: tenant } } });
  t.like(await importOnce(csv), { status: 'DONE', created: 0, updated: 0, unchanged: 2, failed: 0 });
  const again = await api('POST', '/api/business-partner/list', { token, body: { page: 0, size: 10, filter: { crProcessId: tenant } } });
  t.deepEqual(again.body.content, before.body.content);
  t.like(await importOnce(csv.replace(',Two,', ',Second,')), { status: 'DONE', created: 0, updated: 1, unchanged: 1 });
  const two = (await api('POST', '/api/business-partner/list', { token, body: { page: 0, size: 10, filter: { crProcessId: tenant, partnerCode: codes[1] } } }))
    .body.content[0];
  t.like(two, { partnerName: 'Second', version: 1, status: false });
  const history = await api('GET', `/api/business-partner/${two.id}/history`, { token });
  t.deepEqual(
    history.body.content.map((event: { type: string }) => event.type),
    ['business-partner.updated', 'business-partner.created'],
  );
});

test("a contract by its partner's code, dates and decimals in both languages' forms (XLSX)", async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const partner = await createPartner(tenant);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contracts');
  sheet.addRow(['Contract number', 'Business partner', 'Start date', 'End date', 'Currency', 'Billing period', 'Total amount']);
  const nos = [unique('C-'), unique('C-'), unique('C-')];
  sheet.addRow([nos[0], partner.partnerCode, '31.03.2026', '2026-12-31', 'TRY', 'Aylık', '1.234,56']);
  sheet.addRow([nos[1], partner.partnerName, '3/31/2026', new Date(Date.UTC(2026, 11, 31)), 'USD', 'Yearly', '1,234.56']);
  sheet.addRow([nos[2], 'NO-SUCH-PARTNER', '31.02.2026', '', 'EUR', 'Weekly', 'abc']);
  const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
  const uploaded = await upload('contract', tenant, 'contracts.xlsx', bytes, token);
  t.is(uploaded.status, 201, uploaded.text);
  const run = uploaded.body as Run;
  t.deepEqual(run.mapping, ['contractNo', 'businessPartnerId', 'startDate', 'endDate', 'currencyCode', 'billingPeriod', 'totalAmount']);
  t.is((await post(`/api/import/contract/${run.id}/start`, token)).status, 200);
  const done = await settled('contract', run.id, token);
  t.like(done, { status: 'DONE', created: 2, failed: 1 });
  t.deepEqual(done.errors.map((error) => error.field).sort(), ['billingPeriod', 'businessPartnerId', 'startDate', 'totalAmount']);
  const list = await api('POST', '/api/contract/list', { token, body: { page: 0, size: 10, filter: { crProcessId: tenant } } });
  for (const contract of list.body.content)
    t.like(contract, { businessPartnerId: partner.id, startDate: '2026-03-31', endDate: '2026-12-31', totalAmount: '1234.56' });
});

test("another service's entity: core's currencies", async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const csv = 'Para birimi kodu\tAd\tSimge\tOndalık basamak\nTRY\tTürk lirası\t₺\t2\nJPY\tYen\t¥\t0\n';
  const run = (await upload('currency', tenant, 'c.tsv', csv, token)).body as Run;
  t.deepEqual(run.mapping, ['code', 'name', 'symbol', 'fractionDigits']);
  t.is((await post(`/api/import/currency/${run.id}/start`, token)).status, 200);
  t.like(await settled('currency', run.id, token), { status: 'DONE', created: 2 });
  const list = await api('POST', '/api/currency/list', { token, body: { page: 0, size: 10, filter: { crProcessId: tenant } } });
  t.deepEqual(list.body.content.map((currency: { code: string }) => currency.code).sort(), ['JPY', 'TRY']);
});

test("dms's categories, a parent named by its name (the name a tenant's category alone has)", async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const parent = await api('POST', '/api/dms-category', { token, body: { crProcessId: tenant, categoryName: 'Sözleşmeler' } });
  t.is(parent.status, 200, parent.text);
  const csv = 'Kategori adı,Üst kategori,Açıklama\nKira,sözleşmeler,Kira sözleşmeleri\nHizmet,Sözleşmeler,\nYetim,Yok Böyle,\n';
  const run = (await upload('dms-category', tenant, 'k.csv', csv, token)).body as Run;
  t.deepEqual(run.mapping, ['categoryName', 'parentId', 'description']);
  t.is((await post(`/api/import/dms-category/${run.id}/start`, token)).status, 200);
  const done = await settled('dms-category', run.id, token);
  t.like(done, { status: 'DONE', created: 2, failed: 1 });
  t.like(done.errors, [{ row: 4, field: 'parentId', code: 'SVC-SYS-2001' }]);
  const list = await api('POST', '/api/dms-category/list', { token, body: { page: 0, size: 10, filter: { crProcessId: tenant, parentId: parent.body.id } } });
  t.deepEqual(list.body.content.map((category: { categoryName: string }) => category.categoryName).sort(), ['Hizmet', 'Kira']);
});

test("roles: reading needs <entity>:read, importing <entity>:write; another tenant's run is 404", async (t) => {
  const { token } = await adminSession();
  const [a, b] = [freshTenant(), freshTenant()];
  const [accountA, accountB] = await Promise.all([accountFor(a), accountFor(b)]);
  const [reader, writer, stranger] = await Promise.all([
    userWithRoles(accountA, ['business-partner:read']),
    userWithRoles(accountA, ['business-partner:read', 'business-partner:write']),
    userWithRoles(accountB, ['business-partner:read', 'business-partner:write']),
  ]);
  const csv = `partnerCode,partnerName,partnerType\n${unique('P-')},X,CUSTOMER\n`;
  assertErrorBody(t, await upload('business-partner', a, 'p.csv', csv, reader.token), 403, 'SVC-SYS-1003');
  // a tenant the caller does not hold
  assertErrorBody(t, await upload('business-partner', b, 'p.csv', csv, writer.token), 403, 'SVC-SYS-1003');
  const run = (await upload('business-partner', a, 'p.csv', csv, writer.token)).body as Run;
  t.is((await api('GET', `/api/import/business-partner/${run.id}`, { token: reader.token })).status, 200);
  assertErrorBody(t, await post(`/api/import/business-partner/${run.id}/start`, reader.token), 403, 'SVC-SYS-1003');
  assertErrorBody(t, await api('GET', `/api/import/business-partner/${run.id}`, { token: stranger.token }), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await post(`/api/import/business-partner/${run.id}/start`, stranger.token), 404, 'SVC-SYS-4001');
  // the run under another entity's path is no run
  assertErrorBody(t, await api('GET', `/api/import/branch/${run.id}`, { token }), 404, 'SVC-SYS-4001');
  assertErrorBody(t, await api('GET', `/api/import/no-such-entity/${run.id}`, { token }), 404, 'SVC-SYS-4001');
  const list = await api('GET', `/api/import/business-partner?crProcessId=${a}`, { token: writer.token });
  t.is(list.status, 200);
  t.deepEqual(
    list.body.content.map((listed: { id: number }) => listed.id),
    [run.id],
  );
  assertErrorBody(t, await api('GET', `/api/import/business-partner?crProcessId=${a}`, { token: stranger.token }), 403, 'SVC-SYS-1003');
});

test('a file over the limit, a zip bomb XLSX, a CSV with a 10 MB line and a non-UTF-8 file are refused with the error body', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  assertErrorBody(t, await upload('business-partner', tenant, 'big.csv', Buffer.alloc(20 * 1024 * 1024 + 1, 'a'), token), 413, 'SVC-SYS-3001');
  const latin = Buffer.concat([Buffer.from('partnerCode,partnerName\nP-1,'), Buffer.from([0xde, 0x69, 0x72, 0x6b, 0x65, 0x74]), Buffer.from('\n')]);
  const notUtf8 = await upload('business-partner', tenant, 'latin.csv', latin, token);
  assertErrorBody(t, notUtf8, 400, 'SVC-SYS-2001');
  t.regex(notUtf8.body.message, /UTF-8/);
  const long = await upload('business-partner', tenant, 'long.csv', `partnerCode,partnerName\nP-1,${'x'.repeat(10 * 1024 * 1024)}\n`, token);
  assertErrorBody(t, long, 400, 'SVC-SYS-2001');
  t.regex(long.body.message, /Line 2/);
  const bomb = await upload('business-partner', tenant, 'bomb.xlsx', zipOf('xl/worksheets/sheet1.xml', Buffer.alloc(64 * 1024 * 1024)), token);
  assertErrorBody(t, bomb, 400, 'SVC-SYS-2001');
  t.regex(bomb.body.message, /XLSX/);
  assertErrorBody(t, await api('POST', '/api/import/business-partner', { token, body: { crProcessId: tenant } }), 400, 'SVC-SYS-2001');
  const run = (await upload('business-partner', tenant, 'p.csv', 'partnerCode,partnerName\nP-1,X\n', token)).body as Run;
  for (const body of [
    { mapping: ['partnerCode'] },
    { mapping: ['partnerCode', 'partnerCode'] },
    { mapping: ['partnerCode', 'nope'] },
    { mapping: 'x' },
    { mapping: [null, null], other: 1 },
  ]) {
    assertErrorBody(t, await api('PUT', `/api/import/business-partner/${run.id}`, { token, body }), 400, 'SVC-SYS-2001');
  }
  assertErrorBody(
    t,
    await api('PUT', `/api/import/business-partner/${run.id}`, { token, raw: '{"mapping":', headers: { 'content-type': 'application/json' } }),
    400,
    'SVC-SYS-2001',
  );
});

test('cancel: a run not started ends CANCELLED and can no longer start', async (t) => {
  const { token } = await adminSession();
  const run = (await upload('business-partner', freshTenant(), 'p.csv', `partnerCode,partnerName,partnerType\n${unique('P-')},X,CUSTOMER\n`, token))
    .body as Run;
  t.like((await post(`/api/import/business-partner/${run.id}/cancel`, token)).body, { status: 'CANCELLED' });
  assertErrorBody(t, await post(`/api/import/business-partner/${run.id}/start`, token), 409, 'SVC-SYS-4004');
});

/** A CSV of `rows` new partners. */
function partnersCsv(rows: number): string {
  const prefix = unique('M-');
  return ['partnerCode,partnerName,partnerType', ...Array.from({ length: rows }, (_, row) => `${prefix}-${row},Partner ${row},CUSTOMER`)].join('\n');
}

test('a run under way stops at its next chunk when cancelled, and when the importer loses its role, with a clear state', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const account = await accountFor(tenant);
  const cancelled = (await upload('business-partner', tenant, 'many.csv', partnersCsv(2000), token)).body as Run;
  t.is((await post(`/api/import/business-partner/${cancelled.id}/start`, token)).status, 200);
  t.is((await post(`/api/import/business-partner/${cancelled.id}/cancel`, token)).status, 200);
  const stopped = await settled('business-partner', cancelled.id, token);
  t.is(stopped.status, 'CANCELLED');
  t.true(stopped.processed < 2000, JSON.stringify(stopped));
  // what was recorded was written, each row once
  const written = await api('POST', '/api/business-partner/list', { token, body: { page: 0, size: 1, filter: { crProcessId: tenant } } });
  t.true(written.body.totalElements >= stopped.created, `${written.body.totalElements} written, ${stopped.created} counted`);

  const writer = await userWithRoles(account, ['business-partner:read', 'business-partner:write']);
  const run = (await upload('business-partner', tenant, 'many.csv', partnersCsv(2000), writer.token)).body as Run;
  t.is((await post(`/api/import/business-partner/${run.id}/start`, writer.token)).status, 200);
  const members = await api('POST', '/api/group-member/list', {
    token,
    body: { page: 0, size: 10, filter: { crProcessId: tenant, groupId: writer.group.id } },
  });
  for (const member of members.body.content) t.is((await api('DELETE', `/api/group-member/${member.id}`, { token })).status, 204);
  const failed = await settled('business-partner', run.id, token);
  t.like(failed, { status: 'FAILED', message: 'The importing user no longer holds business-partner:write in this tenant: the import stopped' });
  t.true(failed.processed < 2000);
});

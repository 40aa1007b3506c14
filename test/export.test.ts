/**
 * Exports (docs/interface.md#export, docs/adr/0156-export-any-list.md): POST /api/{path}/export
 * writes every record of the list its body describes, in the list's order, as CSV or XLSX, with
 * headers and enum values in the caller's language and text cells that would be formulas neutralised;
 * tenant and roles as for the list.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import test from 'ava';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { businessPartner } from '@platform/contracts/bpm/business-partner.ts';
import { decimalCell, exportColumns, neutralised } from '../gateway/src/export/columns.ts';
import { csvWriter, xlsxWriter } from '../gateway/src/export/writers.ts';
import { EXCELJS_INSTALLED, EXCELJS_WRITTEN_FOR, sheetInput } from '../gateway/src/export/exceljs-backpressure.ts';
import { exportFileName, exportRequestFromJson } from '../gateway/src/export/export-route.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { adminSession, createAccount, createAccrual, createPartner, freshTenant, unique, userWithRoles } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { sql } from './helpers/db.ts';
import { logLinesWith, type LogLine } from './helpers/platform-log.ts';
import { until } from './helpers/until.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';

const BOM = '\uFEFF';

/** The bytes of a stream written by `write`, once it ends. */
async function collect(write: (out: PassThrough) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => out.on('end', resolve));
  await write(out);
  await ended;
  return Buffer.concat(chunks);
}

/** The rows of an XLSX file's first sheet, as exceljs reads them back (cell values by column). */
async function xlsxRows(bytes: Buffer | Uint8Array): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as never);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('no worksheet');
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const values = row.values as unknown[];
    rows.push(values.slice(1));
  });
  return rows;
}

// --- the format code, without the platform ---

test('a text cell that a spreadsheet would read as a formula gets a leading quote; others are as they were', (t) => {
  // "cells beginning with =, +, - or @ are neutralised (formula injection)"; TAB and CR as OWASP adds
  for (const text of ['=HYPERLINK("http://x","y")', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) t.is(neutralised(text), `'${text}`, JSON.stringify(text));
  for (const text of ['Kartal', '1+1', ' =x', "'quoted", '']) t.is(neutralised(text), text, JSON.stringify(text));
});

test('a decimal is an XLSX number while a double holds it exactly, else its string', (t) => {
  t.is(decimalCell('-1250.50'), -1250.5);
  t.is(decimalCell('0.0001'), 0.0001);
  t.is(decimalCell('123456789012345.00'), 123456789012345);
  t.is(decimalCell('1234567890123456.78'), '1234567890123456.78');
  // a decimal kept as text is a text cell: neutralised like any other
  t.is(decimalCell('-1234567890123456.78'), "'-1234567890123456.78");
});

test('the columns: every shown field in the declaration order by default, their labels in the language, an unknown one refused', (t) => {
  const en = exportColumns(businessPartner, 'en', undefined);
  t.deepEqual(
    en.map((column) => column.name),
    ['id', 'version', 'crProcessId', 'status', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', ...Object.keys(businessPartner.fields)],
  );
  const tr = exportColumns(businessPartner, 'tr', ['partnerCode', 'partnerType', 'status']);
  t.deepEqual(
    tr.map((column) => column.header),
    ['Ortak kodu', 'Ortak türü', 'Durum'],
  );
  t.is(tr[1]?.csv('SUPPLIER'), 'Tedarikçi');
  t.is(tr[2]?.csv(true), 'Aktif');
  t.is(tr[2]?.csv(false), 'Pasif');
  t.is(exportColumns(businessPartner, 'en', ['status'])[0]?.csv(false), 'Passive');
  for (const columns of [
    ['partnerCode', 'colour'],
    ['partnerCode', 'partnerCode'],
  ]) {
    const error = t.throws(() => exportColumns(businessPartner, 'en', columns), { instanceOf: DomainError });
    t.is(error?.code, 'SVC-SYS-2001');
    t.is(error?.params.field, 'columns[1]');
  }
});

test("an export's body is the list's without paging; ids become the list's filter by key", (t) => {
  const request = exportRequestFromJson(businessPartner, { filter: { crProcessId: 7 }, sorts: [{ field: 'partnerName' }], ids: [3, 1] });
  t.deepEqual(request.page.filter, { crProcessId: 7, idIn: [3, 1] });
  for (const [body, field] of [
    [{ filter: { crProcessId: 7 }, page: 0 }, 'page'],
    [{ filter: { crProcessId: 7 }, size: 500 }, 'size'],
    [{ filter: { crProcessId: 7 }, after: '' }, 'after'],
    [{ filter: { crProcessId: 7 }, ids: [] }, 'ids'],
    [{ filter: { crProcessId: 7 }, ids: Array.from({ length: 501 }, (_, i) => i + 1) }, 'ids'],
    [{ filter: { crProcessId: 7 }, ids: ['1'] }, 'ids[0]'],
    [{ filter: { crProcessId: 7 }, columns: 'partnerCode' }, 'columns'],
    [{ filter: { crProcessId: 7 }, colour: 1 }, 'colour'],
  ] as const) {
    const error = t.throws(() => exportRequestFromJson(businessPartner, body), { instanceOf: DomainError }, JSON.stringify(body));
    t.is(error?.params.field, field);
  }
  t.regex(exportFileName(businessPartner, 'csv', new Date('2026-11-29T09:15:00.123Z')), /^business-partner-2026-11-29T091500Z\.csv$/);
});

test('CSV: a byte order mark, the header row, CRLF, RFC 4180 quoting, Turkish letters as UTF-8', async (t) => {
  const columns = exportColumns(businessPartner, 'tr', ['partnerName', 'partnerType', 'countryId', 'createdAt']);
  const bytes = await collect(async (out) => {
    const writer = csvWriter(out, columns);
    await writer.page([{ partnerName: 'Şişli "Ticaret", A.Ş.', partnerType: 'BOTH', countryId: 90, createdAt: '2026-11-29T09:15:00.000Z' }]);
    await writer.page([{ partnerName: '=1+1\nx', partnerType: 'CUSTOMER' }]);
    await writer.end();
  });
  const text = bytes.toString('utf8');
  t.true(text.startsWith(BOM));
  t.is(
    text.slice(1),
    'Ortak adı,Ortak türü,Ülke,Oluşturulma\r\n' + '"Şişli ""Ticaret"", A.Ş.",Her ikisi,90,2026-11-29T09:15:00.000Z\r\n' + '"\'=1+1\nx",Müşteri,,\r\n',
  );
});

test('XLSX: numbers as numbers, dates as dates, booleans as words, formulas neutralised, read back by exceljs', async (t) => {
  const columns = exportColumns(businessPartner, 'en', ['id', 'partnerName', 'status', 'createdAt']);
  const bytes = await collect(async (out) => {
    const writer = xlsxWriter(out, columns, 'Business partners');
    await writer.page([
      { id: 12, partnerName: '@SUM(A1)', status: true, createdAt: '2026-11-29T09:15:00.000Z' },
      { id: 13, partnerName: 'Kartal', status: false },
    ]);
    await writer.end();
  });
  const rows = await xlsxRows(bytes);
  t.deepEqual(rows[0], ['ID', 'Partner name', 'Status', 'Created']);
  t.deepEqual(rows[1], [12, "'@SUM(A1)", 'Active', new Date('2026-11-29T09:15:00.000Z')]);
  t.deepEqual(rows[2]?.slice(0, 3), [13, 'Kartal', 'Passive']);
  t.is(rows.length, 3);
});

test("XLSX: the writer finds the zip entry's input it waits for inside exceljs (exceljs/exceljs#2916)", async (t) => {
  // the streaming writer does not wait for it; the export does, found by reaching into exceljs: an
  // exceljs built otherwise must fail here rather than let a large export's sheet pile up in memory
  t.is(EXCELJS_INSTALLED, EXCELJS_WRITTEN_FOR, 'gateway/src/export/exceljs-backpressure.ts was written for this exceljs; read its internals again');
  const out = new PassThrough();
  out.resume();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('x');
  sheet.addRow(['a']).commit();
  await new Promise((resolve) => setImmediate(resolve));
  const input = sheetInput(sheet);
  t.truthy(input, "the sheet's pass-through into the zip");
  t.is(typeof input?._writableState?.needDrain, 'boolean');
  sheet.commit();
  await workbook.commit();
});

// --- over the platform ---

/** The records of a list, walked a page of 500 at a time with its filter and sorts (the list's own order). */
async function walkList(token: string, path: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<any[]> {
  const records: any[] = [];
  for (let page = 0; ; page++) {
    const res = await api('POST', `/api/${path}/list`, { token, headers, body: { ...body, page, size: 500 } });
    if (res.status !== 200) throw new Error(`list ${path}: ${res.status} ${res.text}`);
    records.push(...res.body.content);
    if (res.body.last) return records;
  }
}

/**
 * An export's answer (its text decoded as UTF-8 with the byte order mark kept: fetch's text() drops
 * it) and, for CSV, its rows parsed (the BOM taken off).
 */
async function exportCsv(token: string, path: string, body: unknown, headers?: Record<string, string>) {
  const response = await fetch(`${platform.url}/api/${path}/export`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : undefined;
  const res = { status: response.status, headers: response.headers, text, body: json };
  const rows: string[][] = res.status === 200 ? parse(text.replace(/^\uFEFF/, '')) : [];
  return { res, rows };
}

/** A tenant with 620 partners (more than a page of 500), of three types, some named as formulas. */
const partners = (async () => {
  const tenant = freshTenant();
  const formulas = ['=HYPERLINK("http://evil.example","click")', '+1', '-2', '@SUM(A1:A2)'];
  const types = ['CUSTOMER', 'SUPPLIER', 'BOTH'];
  const made: any[] = [];
  // the formula names first, one by one: the lowest ids
  for (const [n, partnerName] of formulas.entries()) made.push(await createPartner(tenant, { partnerName, partnerType: types[n % 3], status: true }));
  for (let start = formulas.length; start < 620; start += 20) {
    made.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(20, 620 - start) }, (_, i) => {
          const n = start + i;
          return createPartner(tenant, {
            partnerName: `Ortak ${String(n).padStart(4, '0')} Şişli`,
            partnerType: types[n % 3],
            status: n % 7 !== 0,
          });
        }),
      )),
    );
  }
  return { tenant, made };
})();

test("a CSV export holds the list's records in its order, over several pages, with a sort on a field many records share", async (t) => {
  const { token } = await adminSession();
  const { tenant, made } = await partners;
  const body = { filter: { crProcessId: tenant }, sorts: [{ field: 'partnerType', direction: 'DESC' }] };
  const listed = await walkList(token, 'business-partner', body);
  t.is(listed.length, made.length);
  const { res, rows } = await exportCsv(token, 'business-partner', { ...body, columns: ['id', 'partnerCode', 'partnerName', 'partnerType', 'status'] });
  t.is(res.status, 200, res.text.slice(0, 300));
  t.is(res.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.regex(res.headers.get('content-disposition') ?? '', /^attachment; filename="business-partner-\d{4}-\d{2}-\d{2}T\d{6}Z\.csv"$/);
  t.is(res.headers.get('x-content-type-options'), 'nosniff');
  t.true(res.text.startsWith(BOM), 'a byte order mark first');
  t.deepEqual(rows[0], ['ID', 'Partner code', 'Partner name', 'Partner type', 'Status']);
  const types: Record<string, string> = { CUSTOMER: 'Customer', SUPPLIER: 'Supplier', BOTH: 'Customer and supplier' };
  t.deepEqual(
    rows.slice(1),
    listed.map((p) => [String(p.id), p.partnerCode, neutralised(p.partnerName), types[p.partnerType], p.status ? 'Active' : 'Passive']),
  );
  // the formula names came out quoted
  const names = new Set(rows.slice(1).map((row) => row[2]));
  for (const name of ['\'=HYPERLINK("http://evil.example","click")', "'+1", "'-2", "'@SUM(A1:A2)"])
    t.true(names.has(name), `${name} among ${rows.length} rows`);
});

test('headers and enum values in the language of Accept-Language; every shown field by default', async (t) => {
  const { token } = await adminSession();
  const { tenant } = await partners;
  const body = { filter: { crProcessId: tenant, partnerType: 'SUPPLIER' }, sorts: [{ field: 'partnerName' }] };
  const { res, rows } = await exportCsv(token, 'business-partner', body, { 'accept-language': 'tr' });
  t.is(res.status, 200, res.text.slice(0, 300));
  const header = rows[0] ?? [];
  t.deepEqual(header.slice(0, 4), ['Kimlik', 'Sürüm', 'Kiracı', 'Durum']);
  t.true(header.includes('Ortak türü'));
  t.is(header.length, exportColumns(businessPartner, 'tr', undefined).length);
  const typeAt = header.indexOf('Ortak türü');
  t.deepEqual([...new Set(rows.slice(1).map((row) => row[typeAt]))], ['Tedarikçi']);
  t.deepEqual([...new Set(rows.slice(1).map((row) => row[3]))].sort(), ['Aktif', 'Pasif']);
  const listed = await walkList(token, 'business-partner', body);
  t.deepEqual(
    rows.slice(1).map((row) => Number(row[0])),
    listed.map((p) => p.id),
  );
  t.is((await exportCsv(token, 'business-partner', body, { 'accept-language': 'en' })).rows[0]?.[3], 'Status');
});

test("ids export only those records, in the list's order and within its filter; searchTerm applies", async (t) => {
  const { token } = await adminSession();
  const { tenant, made } = await partners;
  const chosen = [made[600], made[3], made[250]].map((p) => p.id);
  const other = await createPartner(freshTenant());
  const body = { filter: { crProcessId: tenant }, sorts: [{ field: 'partnerName', direction: 'DESC' }], columns: ['id'] };
  const { res, rows } = await exportCsv(token, 'business-partner', { ...body, ids: [...chosen, other.id] });
  t.is(res.status, 200, res.text);
  const listed = (await walkList(token, 'business-partner', { filter: body.filter, sorts: body.sorts })).filter((p) => chosen.includes(p.id));
  t.deepEqual(
    rows.slice(1).map((row) => Number(row[0])),
    listed.map((p) => p.id),
  );
  const searched = await exportCsv(token, 'business-partner', { ...body, searchTerm: 'ortak 0012' });
  t.deepEqual(
    searched.rows.slice(1).map((row) => Number(row[0])),
    (await walkList(token, 'business-partner', { filter: body.filter, sorts: body.sorts, searchTerm: 'ortak 0012' })).map((p) => p.id),
  );
  t.true(searched.rows.length > 1);
});

test('an XLSX export reads back with exceljs: the rows in order, a negative amount a number, dates as dates, formulas quoted', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  await createAccrual(tenant, { amount: '-1250.50' });
  await createAccrual(tenant, { amount: '99999.99', periodStart: '2026-02-01', periodEnd: '2026-02-28' });
  const res = await fetch(`${platform.url}/api/accrual/export?format=xlsx`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ filter: { crProcessId: tenant }, sorts: [{ field: 'amount' }], columns: ['amount', 'periodStart', 'status'] }),
  });
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  t.regex(res.headers.get('content-disposition') ?? '', /filename="accrual-.*\.xlsx"/);
  const rows = await xlsxRows(new Uint8Array(await res.arrayBuffer()));
  t.deepEqual(rows[1], [-1250.5, new Date('2026-01-01T00:00:00.000Z'), 'Active']);
  t.deepEqual(rows[2], [99999.99, new Date('2026-02-01T00:00:00.000Z'), 'Active']);
  t.is(rows.length, 3);

  const { tenant: partnersTenant } = await partners;
  const sheet = await fetch(`${platform.url}/api/business-partner/export?format=xlsx`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ filter: { crProcessId: partnersTenant }, sorts: [{ field: 'id' }], columns: ['partnerName'] }),
  });
  const names = (await xlsxRows(new Uint8Array(await sheet.arrayBuffer()))).slice(1, 5).map((row) => row[0]);
  t.deepEqual(names, ['\'=HYPERLINK("http://evil.example","click")', "'+1", "'-2", "'@SUM(A1:A2)"]);
});

test('bad input is 400 with the error body: an unknown column, paging, malformed JSON, a NUL, an unknown format', async (t) => {
  const { token } = await adminSession();
  const filter = { crProcessId: freshTenant() };
  const send = (body: unknown, query = '') => api('POST', `/api/business-partner/export${query}`, { token, body });
  assertInvalid(t, await send({ filter, columns: ['partnerCode', 'colour'] }), 'columns[1]');
  assertInvalid(t, await send({ filter, page: 1 }), 'page');
  assertInvalid(t, await send({ filter, size: 20 }), 'size');
  assertInvalid(t, await send({ filter, after: '' }), 'after');
  assertInvalid(t, await send({ filter, ids: [] }), 'ids');
  assertInvalid(t, await send({ filter, searchTerm: 'a\u0000b' }), 'searchTerm');
  assertInvalid(t, await send({ filter }, '?format=pdf'), 'format');
  assertInvalid(t, await send({ filter }, '?colour=1'), 'colour');
  assertErrorBody(t, await send({ filter, sorts: [{ field: 'colour' }] }), 400, 'SVC-SYS-2001');
  assertErrorBody(t, await send({}), 400, 'SVC-SYS-2002');
  assertErrorBody(t, await api('POST', '/api/business-partner/export', { token, raw: '{"filter": {' }), 400, 'SVC-SYS-2001');
  assertErrorBody(t, await api('POST', '/api/business-partner/export', { token, raw: '[1]' }), 400, 'SVC-SYS-2001');
});

test('tenant and roles as for the list: another tenant, no read role, and a role removed between two exports', async (t) => {
  const { token } = await adminSession();
  const account = await createAccount();
  await createPartner(account.crProcessId, { partnerName: unique('Mine ') });
  const reader = await userWithRoles(account, ['business-partner:read']);
  const body = { filter: { crProcessId: account.crProcessId } };
  const own = await exportCsv(reader.token, 'business-partner', body);
  t.is(own.res.status, 200, own.res.text);
  t.is(own.rows.length, 2);
  const stranger = await createAccount();
  assertErrorBody(t, (await exportCsv(reader.token, 'business-partner', { filter: { crProcessId: stranger.crProcessId } })).res, 403, 'SVC-SYS-1003');
  // the read of another resource does not cover this one
  assertErrorBody(t, (await exportCsv(reader.token, 'branch', body)).res, 403, 'SVC-SYS-1003');
  const other = await userWithRoles(account, ['branch:read']);
  assertErrorBody(t, (await exportCsv(other.token, 'business-partner', body)).res, 403, 'SVC-SYS-1003');
  // the membership that granted the role removed: the next export is refused at once
  const memberships = await api('POST', '/api/group-member/list', {
    token,
    body: { page: 0, size: 5, filter: { crProcessId: account.crProcessId, groupId: reader.group.id } },
  });
  t.is((await api('DELETE', `/api/group-member/${memberships.body.content[0].id}`, { token })).status, 204);
  assertErrorBody(t, (await exportCsv(reader.token, 'business-partner', body)).res, 403, 'SVC-SYS-1003');
});

/** The gateway's log line of a request that says `msg`, once it is written (within 20 s). */
async function loggedLine(requestId: string, msg: string): Promise<LogLine> {
  let found: LogLine | undefined;
  await until(`the log line "${msg}" of ${requestId}`, 20_000, async () => {
    found = (await logLinesWith(requestId)).find((line) => line.entry.msg === msg);
    return found !== undefined;
  });
  return found as LogLine;
}

/** `count` partners of a tenant written straight in SQL (the export's rows; the API would take minutes for them). */
async function manyPartners(crProcessId: number, count: number): Promise<void> {
  await sql(
    `insert into bpm.business_partner (cr_process_id, created_at, updated_at, created_by, updated_by, partner_code, partner_name, partner_type, address)
     select $1, now(), now(), 'admin', 'admin', 'MP-' || g, 'Many ' || lpad(g::text, 6, '0'), 'CUSTOMER', repeat('Cadde ', 20) || g
       from generate_series(1, $2::int) as g`,
    [crProcessId, count],
  );
}

/** An export read by node:http, paused after its head until `resume` is called: what came, and whether it ended whole. */
function pausedExport(token: string, body: unknown) {
  let resume: () => void = () => undefined;
  const head = new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest(
      `${platform.url}/api/business-partner/export`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        res.pause();
        resolve(res);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
  const ended = head.then(
    (res) =>
      new Promise<{ bytes: number; complete: boolean }>((resolve) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ bytes, complete: res.complete }));
        res.on('error', () => resolve({ bytes, complete: false }));
        res.on('aborted', () => resolve({ bytes, complete: false }));
        resume = () => res.resume();
      }),
  );
  return { head, ended, resume: () => resume() };
}

test('a role taken away while an export streams ends it: the download fails, and the gateway logs it', async (t) => {
  const { token } = await adminSession();
  const account = await createAccount();
  // far more than the sockets between here and the gateway hold, so the gateway waits for this client
  await manyPartners(account.crProcessId, 60_000);
  const reader = await userWithRoles(account, ['business-partner:read']);
  const download = pausedExport(reader.token, { filter: { crProcessId: account.crProcessId } });
  const res = await download.head;
  t.is(res.statusCode, 200);
  const requestId = String(res.headers['x-request-id']);
  const memberships = await api('POST', '/api/group-member/list', {
    token,
    body: { page: 0, size: 5, filter: { crProcessId: account.crProcessId, groupId: reader.group.id } },
  });
  t.is((await api('DELETE', `/api/group-member/${memberships.body.content[0].id}`, { token })).status, 204);
  download.resume();
  const { complete, bytes } = await download.ended;
  t.false(complete, `the download is cut short (${bytes} bytes came)`);
  t.true(bytes > 0);
  const logged = await loggedLine(requestId, 'export failed after it began: connection aborted');
  t.is(logged.source, 'gateway');
});

test('a client that leaves stops the export', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  await manyPartners(tenant, 60_000);
  const download = pausedExport(token, { filter: { crProcessId: tenant } });
  const res = await download.head;
  t.is(res.statusCode, 200);
  const requestId = String(res.headers['x-request-id']);
  res.destroy();
  const logged = await loggedLine(requestId, 'export ended: the client went away');
  t.is(logged.source, 'gateway');
  t.true(Number(logged.entry.rows) < 60_000, `stopped after ${String(logged.entry.rows)} rows`);
});

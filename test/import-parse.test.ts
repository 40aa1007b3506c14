/**
 * libs/service-kit/src/import: how an imported file is read (docs/interface.md#import) before any
 * record is written. The mapping by English and Turkish labels, the cells in both languages' forms,
 * and the files refused with the platform's messages: not UTF-8, a line past the bound, a zip bomb.
 */
import test from 'ava';
import { zipOf } from './helpers/zip-of.ts';
import ExcelJS from 'exceljs';
import { businessPartner } from '@platform/contracts/bpm/business-partner.ts';
import { currency } from '@platform/contracts/core/currency.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { importLimitsOf } from '@platform/kit/config/import-limits.ts';
import type { ScalarField } from '@platform/kit/resource/resource.ts';
import { cellValue, dateText, decimalText } from '@platform/service-kit/import/cells.ts';
import { fold } from '@platform/service-kit/import/fold.ts';
import { mappingProblem, proposeMapping } from '@platform/service-kit/import/mapping.ts';
import { delimiterOf, parseFile } from '@platform/service-kit/import/parse.ts';

const limits = importLimitsOf({});

function refusal(t: import('ava').ExecutionContext, key: string) {
  return (error: unknown) => {
    t.true(error instanceof DomainError, String(error));
    t.is((error as DomainError).code, 'SVC-SYS-2001');
    t.is((error as DomainError).messageKey as string, key);
  };
}

test('headers fold Turkish I and diacritics', (t) => {
  t.is(fold('İş ortağı'), 'isortagi');
  t.is(fold('ORTAK TÜRÜ'), fold('ortak_turu'));
  t.is(fold('Vergi Numarası'), fold('VERGI NUMARASI'));
});

test('the mapping matches field names, English labels and Turkish labels; the rest stays unmapped', (t) => {
  const header = ['Partner code', 'ORTAK ADI', 'partnerType', 'Vergi numarası', 'E-posta', 'Notes', 'Partner Code'];
  t.deepEqual(proposeMapping(businessPartner, header), ['partnerCode', 'partnerName', 'partnerType', 'taxNumber', 'email', null, null]);
  // the common status field by its labels, and the tenant never (the run names it)
  t.deepEqual(proposeMapping(businessPartner, ['Durum', 'Kiracı', 'id']), ['status', null, null]);
  t.is(mappingProblem(businessPartner, 2, ['partnerCode', 'partnerCode']), 'partnerCode is mapped twice');
  t.is(mappingProblem(businessPartner, 2, ['partnerCode', 'crProcessId']), 'crProcessId is not a field an import may fill');
  t.is(mappingProblem(businessPartner, 1, ['partnerCode', null]), 'the mapping has 2 entries for 1 columns');
  t.is(mappingProblem(businessPartner, 2, ['partnerCode', null]), undefined);
});

test("the mapping of another service's entity (core currency) by its labels", (t) => {
  const mapping = proposeMapping(
    currency,
    Object.keys(currency.fields).map((name) => currency.labels.tr.fields[name as keyof typeof currency.labels.tr.fields] ?? name),
  );
  t.deepEqual(mapping, Object.keys(currency.fields));
});

test("enums by value or by either language's label, booleans in both languages", (t) => {
  const spec = businessPartner.fields.partnerType as ScalarField;
  t.is(cellValue('partnerType', spec, 'SUPPLIER', businessPartner.labels), 'SUPPLIER');
  t.is(cellValue('partnerType', spec, 'müşteri', businessPartner.labels), 'CUSTOMER');
  t.is(cellValue('partnerType', spec, 'Customer and supplier', businessPartner.labels), 'BOTH');
  t.throws(() => cellValue('partnerType', spec, 'Friend', businessPartner.labels), { instanceOf: DomainError, message: /field\.enum/ });
  const flag: ScalarField = { kind: 'boolean' };
  for (const word of ['true', 'Evet', 'YES', '1', 'aktif', 'Active']) t.is(cellValue('status', flag, word, businessPartner.labels), true, word);
  for (const word of ['false', 'Hayır', 'no', '0', 'PASİF', 'passive']) t.is(cellValue('status', flag, word, businessPartner.labels), false, word);
  t.throws(() => cellValue('status', flag, 'maybe', businessPartner.labels), { message: /field\.type/ });
});

test('decimals in English and Turkish forms', (t) => {
  t.is(decimalText('amount', '1,234.56'), '1234.56');
  t.is(decimalText('amount', '1.234,56'), '1234.56');
  t.is(decimalText('amount', '1.234.567'), '1234567');
  t.is(decimalText('amount', '1,234,567'), '1234567');
  t.is(decimalText('amount', '12,5'), '12.5');
  t.is(decimalText('amount', '12.5'), '12.5');
  t.is(decimalText('amount', '-7'), '-7');
  // one separator and three digits: the decimal separator, whichever it is
  t.is(decimalText('amount', '1.234'), '1.234');
  t.is(decimalText('amount', '1,234'), '1.234');
  for (const bad of ['1.2.3,4.5', '12a', '1,23,456', '', '-', '1.234,56.7']) t.throws(() => decimalText('amount', bad), { message: /field\.type/ }, bad);
});

test('dates in ISO, Turkish and English forms; impossible dates refused', (t) => {
  t.is(dateText('startDate', '2026-03-31'), '2026-03-31');
  t.is(dateText('startDate', '31.03.2026'), '2026-03-31');
  t.is(dateText('startDate', '3/31/2026'), '2026-03-31');
  for (const bad of ['31/03/2026', '2026-02-30', '30.02.2026', '2026/03/31', 'yesterday'])
    t.throws(() => dateText('startDate', bad), { message: /field\.type/ }, bad);
});

test('a CSV: its delimiter from the header line, its BOM dropped, blank lines left out', async (t) => {
  t.is(delimiterOf('a;b;c\n1,2;3;4'), ';');
  t.is(delimiterOf('a\tb\n'), '\t');
  t.is(delimiterOf('"a;b",c\n'), ',');
  const file = await parseFile(Buffer.from('\uFEFFPartner code;Ortak adı\n"P-1";"Bir; iki"\n\nP-2;Üç\n', 'utf8'), limits);
  t.deepEqual(file, {
    header: ['Partner code', 'Ortak adı'],
    rows: [
      ['P-1', 'Bir; iki'],
      ['P-2', 'Üç'],
    ],
  });
});

test('a file that is not UTF-8 is refused', async (t) => {
  // ISO-8859-9 (Turkish Latin) bytes of "Şirket"
  const latin = Buffer.from([0x50, 0x61, 0x72, 0x74, 0x6e, 0x65, 0x72, 0x0a, 0xde, 0x69, 0x72, 0x6b, 0x65, 0x74, 0x0a]);
  await parseFile(latin, limits).then(() => t.fail('read'), refusal(t, 'import.notUtf8'));
});

test('a CSV with a 10 MB line is refused', async (t) => {
  const long = Buffer.from(`code,name\nP-1,${'x'.repeat(10 * 1024 * 1024)}\n`);
  await parseFile(long, limits).then(() => t.fail('read'), refusal(t, 'import.lineTooLong'));
});

test('a file with no header is refused', async (t) => {
  await parseFile(Buffer.from('\n\n'), limits).then(() => t.fail('read'), refusal(t, 'import.noHeader'));
});

/** An XLSX written by exceljs: a header and rows, typed cells. */
async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Partners');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

test('an XLSX: its first sheet, cells typed', async (t) => {
  const date = new Date(Date.UTC(2026, 2, 31));
  const file = await parseFile(await xlsx([['Partner code', 'Amount', 'Since'], ['P-1', 1234.5, date], [], ['P-2', 7, null]]), limits);
  t.deepEqual(file.header, ['Partner code', 'Amount', 'Since']);
  t.deepEqual(file.rows, [
    ['P-1', 1234.5, date],
    ['P-2', 7],
  ]);
});

test('a zip bomb XLSX is refused before it is inflated, and one that lies about its size while inflating', async (t) => {
  // 64 MiB of zeros deflate to about 64 KiB: a ratio of about 1000
  const zeros = Buffer.alloc(64 * 1024 * 1024);
  await parseFile(zipOf('xl/worksheets/sheet1.xml', zeros), limits).then(() => t.fail('read'), refusal(t, 'import.zipBomb'));
  // past the total, whatever the ratio
  await parseFile(zipOf('xl/worksheets/sheet1.xml', Buffer.alloc(2 * 1024 * 1024)), { ...limits, maxInflatedBytes: 1024 * 1024 }).then(
    () => t.fail('read'),
    refusal(t, 'import.zipBomb'),
  );
  // the directory declares 1 KiB of an entry that inflates to 8 MiB
  await parseFile(zipOf('xl/worksheets/sheet1.xml', Buffer.alloc(8 * 1024 * 1024), 1024), limits).then(() => t.fail('read'), refusal(t, 'import.zipBomb'));
});

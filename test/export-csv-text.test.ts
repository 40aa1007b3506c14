/**
 * gateway/src/export/csv-text.ts writes an export's CSV in place of csv-stringify (the CPU per row,
 * docs/adr/0156-export-any-list.md), and libs/kit/src/resource/iso-date-time.ts a datetime in place
 * of toISOString: both must give the very text the library and the built-in gave.
 */
import test from 'ava';
import { stringify } from 'csv-stringify/sync';
import { csvField, csvRecord } from '../gateway/src/export/csv-text.ts';
import { isoDateTime } from '@platform/kit/resource/iso-date-time.ts';

const FIELDS = ['', 'Kartal', 'Gümüş Ltd. Şti.', 'a,b', 'say "hi"', '"', 'line\nbreak', 'cr\ronly', 'crlf\r\nin', ',', ' lead', "'=x", '\uFEFFbom', '1\t2'];

test('a record is what csv-stringify wrote with the export options (CRLF, quoted only when needed, LF and CR quoted)', (t) => {
  for (const field of FIELDS) {
    t.is(csvRecord([field]), stringify([[field]], { record_delimiter: 'windows', quoted_match: /[\r\n]/ }), JSON.stringify(field));
  }
  const rows = [FIELDS, [...FIELDS].reverse()];
  t.is(rows.map(csvRecord).join(''), stringify(rows, { record_delimiter: 'windows', quoted_match: /[\r\n]/ }));
  t.is(csvField('x"y'), '"x""y"');
});

test('isoDateTime is toISOString, the invalid date and years beyond four digits included', (t) => {
  const times = [0, -1, 1, 1732873200123, 253402300799999, 253402300800000, -30610224000000, -30610224000001, -8.64e15, 8.64e15, NaN];
  for (let i = 0; i < 10_000; i++) times.push(Math.floor((Math.random() * 2 - 1) * 8.64e15), Math.floor(Math.random() * 4e12));
  for (const time of times) {
    const date = new Date(time);
    if (Number.isNaN(time)) t.throws(() => isoDateTime(date), { instanceOf: RangeError });
    else t.is(isoDateTime(date), date.toISOString(), String(time));
  }
});

/**
 * The console's one way per language to write and read dates, times, numbers and money
 * (gateway/console/src/shell/formats.ts, docs/adr/0120-money-and-dates-one-format.md).
 */
import test from 'ava';
import { formatDate, formatDecimal, formatLocalDateTime, formatMoney, parseDate, parseLocalDateTime } from '../gateway/console/src/shell/formats.ts';

test('a date is written day first: 28/11/2026 in English, 28.11.2026 in Turkish', (t) => {
  t.is(formatDate('2026-11-28', 'en'), '28/11/2026');
  t.is(formatDate('2026-11-28', 'tr'), '28.11.2026');
  t.is(formatLocalDateTime('2026-11-28T14:05:09', 'tr'), '28.11.2026 14:05');
});

test('a typed date is read day first, with any of / . - or a space, and a day that does not exist is none', (t) => {
  t.is(parseDate('28.11.2026', 'tr'), '2026-11-28');
  t.is(parseDate('28/11/2026', 'en'), '2026-11-28');
  t.is(parseDate(' 1-3-26 ', 'tr'), '2026-03-01');
  t.is(parseDate('2026-03-01', 'en'), '2026-03-01');
  t.is(parseDate('28112026', 'tr'), '2026-11-28', 'digits alone, as a phone’s number pad types them');
  t.is(parseDate('28,11,2026', 'tr'), '2026-11-28');
  t.is(parseDate('31.02.2026', 'tr'), undefined);
  t.is(parseDate('11/28/2026', 'en'), undefined, 'month first is not the English format here');
  t.is(parseDate('28.11', 'tr'), undefined);
  t.is(parseLocalDateTime('28.11.2026 9:05', 'tr'), '2026-11-28T09:05:00');
  t.is(parseLocalDateTime('28/11/2026', 'en'), '2026-11-28T00:00:00');
  t.is(parseLocalDateTime('28/11/2026 24:00', 'en'), undefined);
});

test('money is written in its currency as the language writes it; other decimals as numbers', (t) => {
  t.is(formatMoney('1500.0000', 'TRY', 'en'), '₺1,500.00');
  t.is(formatMoney('1500.0000', 'TRY', 'tr'), '₺1.500,00');
  t.is(formatMoney('1500.5', 'EUR', 'tr'), '€1.500,50');
  t.is(formatMoney('12.5', 'TL', 'en'), '12.5 TL', 'not an ISO 4217 code: the amount and the code');
  t.is(formatDecimal('1234.5678', 'tr'), '1.234,5678');
  t.is(formatDecimal('1234.5', 'en'), '1,234.5');
});

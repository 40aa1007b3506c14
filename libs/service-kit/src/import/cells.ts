/**
 * A cell of an imported file as the value a create's message carries for its field
 * (docs/interface.md#import): the file's words read as a person writes them in English or
 * Turkish, then checked by the field's own rules (values.ts `toRowValue`, through the engine).
 * A cell it cannot read is 400 SVC-SYS-2001 naming the field, with the message a write would give.
 */
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import type { ScalarField } from '@platform/kit/resource/resource.ts';
import { valueTexts, type ResourceLabels } from '@platform/kit/resource/labels.ts';
import { fold } from './fold.ts';

/** A cell as a file gives it: text (CSV, and XLSX strings), or an XLSX cell's own type. */
export type Cell = string | number | boolean | Date | null;

/** Whether a cell holds nothing: absent, or blank text. An empty cell leaves its field unset. */
export function isBlank(cell: Cell | undefined): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

const TRUE_WORDS = new Set(['true', 'yes', 'evet', '1', 'active', 'aktif', 'y', 'e']);
const FALSE_WORDS = new Set(['false', 'no', 'hayir', '0', 'passive', 'pasif', 'n', 'h']);

/**
 * The message value of a non-blank cell for a field of `spec`. Enum values are read by the value
 * itself or by its English or Turkish label; booleans as true/false, yes/no, evet/hayır, 1/0,
 * active/passive, aktif/pasif; decimals and dates as decimalText and dateText read them.
 *
 * @example
 * cellValue('partnerType', spec, 'Müşteri', labels) // 'CUSTOMER'
 * cellValue('amount', { kind: 'decimal' }, '1.234,56', labels) // '1234.56'
 */
export function cellValue(field: string, spec: ScalarField, cell: Cell, labels: ResourceLabels): unknown {
  switch (spec.kind) {
    case 'string':
    case 'text':
      return cell instanceof Date ? isoDate(cell) : String(cell).trim();
    case 'enum':
      return enumValue(field, spec, String(cell), labels);
    case 'boolean': {
      if (typeof cell === 'boolean') return cell;
      const word = fold(String(cell));
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      throw invalidField(field, 'field.type', { type: 'boolean' });
    }
    case 'long':
    case 'int': {
      if (typeof cell === 'number') return cell;
      const text = String(cell).trim();
      if (!/^-?\d{1,16}$/.test(text)) throw invalidField(field, 'field.type', { type: 'integer' });
      return Number(text);
    }
    case 'decimal':
      return typeof cell === 'number' ? numberText(field, cell) : decimalText(field, String(cell));
    case 'date':
      return cell instanceof Date ? isoDate(cell) : dateText(field, String(cell));
    case 'datetime':
      return cell instanceof Date ? cell.toISOString() : String(cell).trim();
  }
}

/** Enum values by folded label, per field spec (labels read once per field). */
const enumWords = new WeakMap<ScalarField, Map<string, string>>();

function enumValue(field: string, spec: ScalarField, text: string, labels: ResourceLabels): string {
  const values = spec.values ?? [];
  let words = enumWords.get(spec);
  if (!words) {
    words = new Map();
    const texts = valueTexts(labels, field, values) ?? {};
    for (const value of values) {
      words.set(fold(value), value);
      for (const label of Object.values(texts[value] ?? {})) if (!words.has(fold(label))) words.set(fold(label), value);
    }
    enumWords.set(spec, words);
  }
  const trimmed = text.trim();
  if (values.includes(trimmed)) return trimmed;
  const value = words.get(fold(trimmed));
  if (value === undefined) throw invalidField(field, 'field.enum', { values: values.join(', ') });
  return value;
}

/**
 * A decimal written either way: `1,234.56` (English) or `1.234,56` (Turkish), with or without the
 * grouping. With both separators the last is the decimal one; with one kind alone, it is the
 * decimal separator unless it appears more than once (`1.234.567`, `1,234,567`: grouping). So
 * `1,5` and `1.5` are both one and a half, and `1.234` and `1,234` are both 1.234, never 1234: a
 * file's thousands need a second group or a decimal part to read as such (docs/interface.md#import).
 */
export function decimalText(field: string, raw: string): string {
  const text = raw.trim().replace(/[\s\u00a0']/g, '');
  const refuse = () => invalidField(field, 'field.type', { type: 'decimal' });
  if (!/^-?[\d.,]+$/.test(text)) throw refuse();
  const lastDot = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  let whole: string;
  let fraction = '';
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const grouping = decimal === '.' ? ',' : '.';
    const at = text.lastIndexOf(decimal);
    whole = text.slice(0, at);
    fraction = text.slice(at + 1);
    if (!groupedDigits(whole, grouping)) throw refuse();
    whole = whole.replaceAll(grouping, '');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ',';
    const count = text.split(separator).length - 1;
    if (count > 1) {
      if (!groupedDigits(text, separator)) throw refuse();
      whole = text.replaceAll(separator, '');
    } else {
      [whole = '', fraction = ''] = text.split(separator);
    }
  } else {
    whole = text;
  }
  if (!/^-?\d+$/.test(whole) || !/^\d*$/.test(fraction) || whole === '-') throw refuse();
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** `1.234.567` with `.`: digits in groups of three after the first. */
function groupedDigits(text: string, separator: string): boolean {
  const [first = '', ...groups] = text.replace(/^-/, '').split(separator);
  return /^\d{1,3}$/.test(first) || (groups.length === 0 && /^\d+$/.test(first)) ? groups.every((group) => /^\d{3}$/.test(group)) : false;
}

function numberText(field: string, value: number): string {
  if (!Number.isFinite(value)) throw invalidField(field, 'field.type', { type: 'decimal' });
  // a spreadsheet's binary fraction, to the four decimals a decimal keeps
  return String(Math.round(value * 10_000) / 10_000);
}

/**
 * A date as ISO (`2026-03-31`), Turkish (`31.03.2026`, day first, with dots) or English
 * (`03/31/2026`, month first, with slashes): the separator says which, so no date is read two ways.
 */
export function dateText(field: string, raw: string): string {
  const text = raw.trim();
  const refuse = () => invalidField(field, 'field.type', { type: 'date (YYYY-MM-DD)' });
  let match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]00:00(?::00(?:\.0+)?)?Z?)?$/.exec(text);
  let ymd: [string, string, string] | undefined = match ? [match[1] ?? '', match[2] ?? '', match[3] ?? ''] : undefined;
  match = ymd ? null : /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  if (match) ymd = [match[3] ?? '', match[2] ?? '', match[1] ?? ''];
  match = ymd ? null : /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (match) ymd = [match[3] ?? '', match[1] ?? '', match[2] ?? ''];
  if (!ymd) throw refuse();
  const iso = `${ymd[0]}-${ymd[1].padStart(2, '0')}-${ymd[2].padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso) throw refuse();
  return iso;
}

/** A spreadsheet's date cell (exceljs reads it as UTC midnight) as an ISO date. */
function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

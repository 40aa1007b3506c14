import { invalidField } from '../errors/domain-error.ts';
import { isoDateTime } from './iso-date-time.ts';
import type { ScalarField } from './resource.ts';

/**
 * Checks and converts one value of a scalar field, as it arrives in a proto message or a list
 * filter, to the value a row holds: numbers for long and int, strings for decimal and date, Date
 * for datetime. Throws 400 SVC-SYS-2001 naming the field.
 *
 * The JSON type must be the kind's own (docs/interface.md#records): a long or int is a number, a boolean a
 * boolean — `"2"` and `"true"` are refused, since a list filter reaches here as the client's JSON.
 * Only a decimal (money, quantity) is either a number or a decimal string.
 *
 * @example
 * toRowValue('crProcessId', { kind: 'long' }, 2)   // 2
 * toRowValue('crProcessId', { kind: 'long' }, '2') // throws 400 SVC-SYS-2001 naming crProcessId
 */
export function toRowValue(field: string, spec: ScalarField, value: unknown): unknown {
  switch (spec.kind) {
    case 'string':
    case 'text':
      return checkText(field, spec, expectString(field, value, 'string'));
    case 'enum': {
      const text = expectString(field, value, 'string');
      if (!spec.values?.includes(text)) {
        throw invalidField(field, 'field.enum', { values: (spec.values ?? []).join(', ') });
      }
      return text;
    }
    case 'long':
    case 'int':
      return checkRange(field, spec, toInteger(field, value, spec.kind));
    case 'boolean':
      if (typeof value === 'boolean') return value;
      throw invalidField(field, 'field.type', { type: 'boolean' });
    case 'decimal':
      return toDecimal(field, spec, value);
    case 'date':
      return toDate(field, value);
    case 'datetime':
      return toDateTime(field, value);
  }
}

/**
 * A row value as it leaves the service: ISO 8601 UTC for datetime, a decimal string with at least
 * two decimals for decimal (docs/interface.md#records), undefined for null.
 */
export function toMessageValue(spec: ScalarField, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (spec.kind) {
    case 'datetime':
      return isoDateTime(value instanceof Date ? value : new Date(String(value)));
    case 'decimal':
      return formatDecimal(String(value));
    case 'long':
    case 'int':
      return Number(value);
    default:
      return value;
  }
}

/** A decimal as a client may write it (money, quantity): up to 15 whole digits and 4 decimals. */
export const DECIMAL = /^-?\d{1,15}(\.\d{1,4})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const patterns = new Map<string, RegExp>();

/** A declared pattern, compiled once. */
function patternOf(source: string): RegExp {
  let pattern = patterns.get(source);
  if (!pattern) {
    pattern = new RegExp(source, 'u');
    patterns.set(source, pattern);
  }
  return pattern;
}

function expectString(field: string, value: unknown, type: string): string {
  if (typeof value !== 'string') throw invalidField(field, 'field.type', { type });
  return value;
}

/** The longest value of a text field: its declared maxLength, else 255 (`string`) or 100,000 (`text`). */
export function maxLengthOf(spec: ScalarField): number {
  return spec.maxLength ?? (spec.kind === 'text' ? 100_000 : 255);
}

function checkText(field: string, spec: ScalarField, text: string): string {
  // PostgreSQL refuses NUL in text; a lone surrogate cannot be stored as UTF-8 either.
  if (text.includes('\u0000') || !text.isWellFormed()) throw invalidField(field);
  const max = maxLengthOf(spec);
  if ([...text].length > max) throw invalidField(field, 'field.tooLong', { max: String(max) });
  if (spec.minLength !== undefined && [...text].length < spec.minLength) {
    throw invalidField(field, 'field.tooShort', { min: String(spec.minLength) });
  }
  if (spec.maxBytes !== undefined && Buffer.byteLength(text, 'utf8') > spec.maxBytes) {
    throw invalidField(field, 'field.tooLongBytes', { max: String(spec.maxBytes) });
  }
  if (spec.required && text.trim() === '') throw invalidField(field, 'field.required');
  if (spec.pattern !== undefined && !patternOf(spec.pattern).test(text)) throw invalidField(field, 'field.pattern', { pattern: spec.pattern });
  return text;
}

function toInteger(field: string, value: unknown, kind: 'long' | 'int'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw invalidField(field, 'field.type', { type: 'integer' });
  }
  if (kind === 'int' && (value < -2_147_483_648 || value > 2_147_483_647)) throw invalidField(field, 'field.outOfRange');
  return value;
}

function checkRange(field: string, spec: ScalarField, number: number): number {
  if ((spec.min !== undefined && number < spec.min) || (spec.max !== undefined && number > spec.max)) {
    throw invalidField(field, 'field.outOfRange');
  }
  return number;
}

function toDecimal(field: string, spec: ScalarField, value: unknown): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !DECIMAL.test(text)) throw invalidField(field, 'field.type', { type: 'decimal' });
  checkRange(field, spec, Number(text));
  return text;
}

function toDate(field: string, value: unknown): string {
  const text = expectString(field, value, 'date (YYYY-MM-DD)');
  const match = DATE.exec(text);
  const date = match ? new Date(`${text}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
    throw invalidField(field, 'field.type', { type: 'date (YYYY-MM-DD)' });
  }
  return text;
}

function toDateTime(field: string, value: unknown): Date {
  const text = expectString(field, value, 'ISO 8601 timestamp');
  const date = new Date(text);
  if (!DATETIME.test(text) || Number.isNaN(date.getTime())) throw invalidField(field, 'field.type', { type: 'ISO 8601 timestamp' });
  return date;
}

/** `1250.0000` → `1250.00`, `1.2345` → `1.2345`, `7` → `7.00`. */
export function formatDecimal(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${trimmed}`;
}

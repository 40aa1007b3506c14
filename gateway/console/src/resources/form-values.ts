/**
 * A record as a form holds it and back: every control holds text (a checkbox a boolean, an
 * `objects` field rows of text), and the body sent is typed by each field's kind
 * (docs/interface.md#records: whole numbers for long and int, decimal strings, ISO UTC times).
 */
import type { ConsoleField, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { formFields } from './fields.ts';
import { toLocalInput } from './filter-values.ts';

/** One row of an `objects` field in a form. */
export type ObjectRow = Record<string, string | boolean>;
/** What one control holds. */
export type FormValue = string | boolean | ObjectRow[];
/** A form's values by field name. */
export type FormValues = Record<string, FormValue>;
/** A create writes every given field; an edit leaves immutable ones out. */
export type FormMode = 'create' | 'edit';

function scalarToForm(field: ConsoleField, value: unknown): string | boolean {
  if (field.kind === 'boolean') return value === undefined || value === null ? field.default === true : Boolean(value);
  if (value === undefined || value === null) return field.default === undefined ? '' : String(field.default);
  if (field.kind === 'datetime') return toLocalInput(String(value));
  return String(value);
}

function toForm(field: ConsoleField, value: unknown): FormValue {
  if (field.writeOnly) return '';
  if (field.kind === 'strings') return Array.isArray(value) ? value.join('\n') : '';
  if (field.kind === 'objects') {
    const rows = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
    return rows.map((row) => Object.fromEntries((field.of ?? []).map((item) => [item.name, scalarToForm(item, row[item.name])])));
  }
  return scalarToForm(field, value);
}

/** The form's values of a record (edit), or of the fields' defaults (create). */
export function toFormValues(resource: ConsoleResource, record?: Record<string, unknown>): FormValues {
  return Object.fromEntries(formFields(resource).map((field) => [field.name, toForm(field, record?.[field.name])]));
}

/** The values an address gives a create form (`?businessPartnerId=7`): only its scalar, non-boolean fields. */
export function prefilledValues(resource: ConsoleResource, params: URLSearchParams): FormValues {
  const values: FormValues = {};
  for (const field of formFields(resource)) {
    const value = params.get(field.name);
    if (value !== null && field.kind !== 'boolean' && field.kind !== 'strings' && field.kind !== 'objects') values[field.name] = value;
  }
  return values;
}

/** A scalar control's value as the API takes it; undefined for an empty control. */
function scalarToBody(field: ConsoleField, value: string | boolean | undefined): unknown {
  if (field.kind === 'boolean') return Boolean(value);
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') return undefined;
  switch (field.kind) {
    case 'long':
    case 'int':
      return Number(text);
    case 'decimal':
      return text.replace(',', '.');
    case 'datetime':
      return new Date(text).toISOString();
    default:
      return field.references && field.references.key === 'id' ? Number(text) : text;
  }
}

function toBody(field: ConsoleField, value: FormValue | undefined): unknown {
  if (field.kind === 'strings') {
    return String(value ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  }
  if (field.kind === 'objects') {
    const rows = Array.isArray(value) ? value : [];
    return rows.map((row) =>
      Object.fromEntries((field.of ?? []).map((item) => [item.name, scalarToBody(item, row[item.name])]).filter(([, each]) => each !== undefined)),
    );
  }
  return scalarToBody(field, value as string | boolean | undefined);
}

/**
 * The body of a create or an update: immutable fields only on create, write-only ones only when
 * filled; on an update an emptied field is sent as null (cleared), on a create left out.
 */
export function toRequestBody(resource: ConsoleResource, values: FormValues, mode: FormMode): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of formFields(resource)) {
    if (mode === 'edit' && field.immutable) continue;
    const value = toBody(field, values[field.name]);
    if (value === undefined) {
      if (mode === 'edit' && !field.writeOnly) body[field.name] = null;
      continue;
    }
    body[field.name] = value;
  }
  return body;
}

/** The fields whose values differ between two forms of one resource. */
export function differingFields(a: FormValues, b: FormValues): string[] {
  return Object.keys({ ...a, ...b }).filter((name) => JSON.stringify(a[name]) !== JSON.stringify(b[name]));
}

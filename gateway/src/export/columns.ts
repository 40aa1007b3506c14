import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { fieldTexts, valueTexts, type Language } from '@platform/kit/resource/labels.ts';
import { visibleScalars, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';

/**
 * What an export writes of a resource's records (docs/adr/0156-export-any-list.md): its columns,
 * each with its header in the user's language and the conversion of a record's value into a CSV
 * cell and into an XLSX cell.
 */

/** The words of a boolean: the status as the console shows it (Active/Passive), any other as yes/no. */
const BOOLEAN_WORDS: Readonly<Record<Language, { status: readonly [string, string]; other: readonly [string, string] }>> = {
  en: { status: ['Active', 'Passive'], other: ['Yes', 'No'] },
  tr: { status: ['Aktif', 'Pasif'], other: ['Evet', 'Hayır'] },
};

/** The first characters that make a spreadsheet program read a text cell as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell as it is written: one that a spreadsheet program would read as a formula (`=`, `+`,
 * `-`, `@`, TAB or CR first) gets a single quote in front, so it stays text.
 *
 * @example
 * neutralised('=HYPERLINK("x")') // "'=HYPERLINK(\"x\")"
 * neutralised('Kartal')          // "Kartal"
 */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** An XLSX cell: text, a number, a date (with its format) or empty. */
export type XlsxCell = string | number | Date | null;

/** One exported column. */
export interface ExportColumn {
  readonly name: string;
  /** The header: the field's label in the user's language. */
  readonly header: string;
  /** The cell format of a date column in XLSX (`yyyy-mm-dd`), else undefined. */
  readonly xlsxFormat: string | undefined;
  /** The CSV cell of a record's value (already neutralised). */
  csv(value: unknown): string;
  /** The XLSX cell of a record's value (text already neutralised). */
  xlsx(value: unknown): XlsxCell;
}

/**
 * The fields an export may write: the resource's visible scalar fields (those a list may sort and
 * filter by), in the declaration's order (common fields first), less secret ones (a webhook's
 * signing secret belongs on its owner's screen, not in a spreadsheet).
 */
export function exportableFields(resource: Resource): readonly [string, ScalarField][] {
  return visibleScalars(resource).filter(([, spec]) => !spec.secret);
}

/**
 * The columns of an export: the requested ones in the order given, else every exportable field;
 * an unknown or repeated name is 400 SVC-SYS-2001 naming `columns[i]`.
 */
export function exportColumns(resource: Resource, language: Language, requested: readonly string[] | undefined): ExportColumn[] {
  const fields = new Map(exportableFields(resource));
  const names = requested ?? [...fields.keys()];
  const seen = new Set<string>();
  return names.map((name, index) => {
    const spec = fields.get(name);
    if (!spec || seen.has(name)) throw invalidField(`columns[${index}]`, 'field.unknown');
    seen.add(name);
    return column(resource, language, name, spec);
  });
}

function column(resource: Resource, language: Language, name: string, spec: ScalarField): ExportColumn {
  const header = neutralised(fieldTexts(resource.labels, name)?.[language] ?? name);
  const plain = (csv: (value: unknown) => string, xlsx: (value: unknown) => XlsxCell, xlsxFormat?: string): ExportColumn => ({
    name,
    header,
    xlsxFormat,
    csv: (value) => (value === null || value === undefined || value === '' ? '' : csv(value)),
    xlsx: (value) => (value === null || value === undefined || value === '' ? null : xlsx(value)),
  });
  switch (spec.kind) {
    case 'string':
    case 'text':
      return plain(
        (value) => neutralised(String(value)),
        (value) => neutralised(String(value)),
      );
    case 'enum': {
      const labels = valueTexts(resource.labels, name, spec.values ?? []);
      const word = (value: unknown) => neutralised(labels?.[String(value)]?.[language] ?? String(value));
      return plain(word, word);
    }
    case 'boolean': {
      const [yes, no] = BOOLEAN_WORDS[language][name === 'status' ? 'status' : 'other'];
      const word = (value: unknown) => (value === true ? yes : no);
      return plain(word, word);
    }
    case 'long':
    case 'int':
      // a number, never text: reference ids stay ids
      return plain(
        (value) => String(value),
        (value) => Number(value),
      );
    case 'decimal':
      return plain(
        (value) => String(value),
        (value) => decimalCell(String(value)),
      );
    case 'date':
      return plain(
        (value) => String(value).slice(0, 10),
        (value) => dateCell(String(value)),
        'yyyy-mm-dd',
      );
    case 'datetime':
      return plain(
        // the service sends toISOString's own text (values.ts toMessageValue): kept as it is, which
        // costs a fraction of parsing it into a Date and printing it again, to the same text
        (value) => (typeof value === 'string' && ISO_UTC.test(value) ? value : new Date(String(value)).toISOString()),
        (value) => new Date(String(value)),
        'yyyy-mm-dd hh:mm:ss',
      );
  }
}

/** A datetime as Date.prototype.toISOString writes one (a four-digit year, milliseconds, UTC). */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Most significant digits a double keeps for every decimal (and a spreadsheet program shows). */
const DOUBLE_DIGITS = 15;

/**
 * A decimal string as an XLSX cell: a number when a double holds it exactly as written (at most 15
 * significant digits), else the decimal string as text, so that no digit is lost.
 *
 * @example
 * decimalCell('-1250.50')            // -1250.5
 * decimalCell('12345678901234567.89') // "12345678901234567.89"
 */
export function decimalCell(decimal: string): XlsxCell {
  const match = /^-?(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) return neutralised(decimal);
  const digits = `${match[1]}${(match[2] ?? '').replace(/0+$/, '')}`.replace(/^0+/, '');
  return digits.length <= DOUBLE_DIGITS ? Number(decimal) : neutralised(decimal);
}

/** A date (`YYYY-MM-DD`) as the XLSX date of that day (midnight UTC, which exceljs writes as the day's serial). */
function dateCell(value: string): XlsxCell {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : neutralised(value);
}

/**
 * Reads an imported file into its header and rows (docs/interface.md#import): a CSV in UTF-8 (its
 * BOM dropped, its delimiter `,`, `;` or TAB, whichever its header line has most of) with
 * csv-parse, or the first worksheet of an XLSX with exceljs's streaming reader once its zip has
 * passed the guard (zip-guard.ts). Every refusal is 400 SVC-SYS-2001 with the platform's message.
 */
import { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { ImportLimits } from '@platform/kit/config/import-limits.ts';
import type { Cell } from './cells.ts';
import { guardZip } from './zip-guard.ts';

export type ImportFormat = 'csv' | 'xlsx';

/** A file read: its header's texts and its rows, each as many cells as it has (blank rows left out). */
export interface ParsedFile {
  header: string[];
  rows: Cell[][];
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** The format of a file by its bytes: a zip is an XLSX, anything else is read as CSV. */
export function formatOf(bytes: Buffer): ImportFormat {
  return bytes.subarray(0, 4).equals(ZIP_MAGIC) ? 'xlsx' : 'csv';
}

export async function parseFile(bytes: Buffer, limits: ImportLimits, rowLimit = Number.POSITIVE_INFINITY): Promise<ParsedFile> {
  const parsed = formatOf(bytes) === 'xlsx' ? await parseXlsx(bytes, limits, rowLimit) : parseCsvText(bytes, limits, rowLimit);
  const header = parsed[0]?.map((cell) => (cell === null ? '' : String(cell).trim()));
  if (!header || header.every((text) => text === '')) throw new DomainError('SVC-SYS-2001', 'import.noHeader');
  return { header, rows: parsed.slice(1).filter((row) => row.some((cell) => cell !== null && String(cell).trim() !== '')) };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function parseCsvText(bytes: Buffer, limits: ImportLimits, rowLimit: number): Cell[][] {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new DomainError('SVC-SYS-2001', 'import.notUtf8');
  }
  try {
    return parseCsv(text, {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: limits.maxLineBytes,
      to_line: Number.isFinite(rowLimit) ? rowLimit + 1 : undefined,
    }) as string[][];
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'CSV_MAX_RECORD_SIZE') {
      const line = String((error as { lines?: number }).lines ?? '?');
      throw new DomainError('SVC-SYS-2001', 'import.lineTooLong', { line, max: String(limits.maxLineBytes) });
    }
    throw new DomainError('SVC-SYS-2001', 'import.notReadable');
  }
}

/** `,`, `;` or TAB: whichever the first line (its first 64 KiB) has most of, outside quotes; `,` when none. */
export function delimiterOf(text: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (let i = 0; i < Math.min(text.length, 65_536); i++) {
    const char = text[i] ?? '';
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ',';
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

async function parseXlsx(bytes: Buffer, limits: ImportLimits, rowLimit: number): Promise<Cell[][]> {
  await guardZip(bytes, limits);
  const rows: Cell[][] = [];
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    });
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const values = row.values as unknown[];
        const cells: Cell[] = [];
        // exceljs's row values start at index 1 (column A)
        for (let column = 1; column < values.length; column++) cells.push(cellOf(values[column]));
        // the sheet is read to its end (a reader left midway fails), rows past the limit not kept
        if (row.number <= rowLimit + 1) rows[row.number - 1] = cells;
      }
      // the first worksheet alone
      break;
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('SVC-SYS-2001', 'import.notReadable');
  }
  // rows the sheet skipped (blank) stay blank
  return Array.from(rows, (row) => row ?? []);
}

/** An exceljs cell value as a cell: rich text joined, a formula's result, a hyperlink's text, an error blank. */
function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'object') {
    const object = value as { richText?: { text: string }[]; result?: unknown; text?: unknown; error?: unknown };
    if (Array.isArray(object.richText)) return object.richText.map((part) => part.text).join('');
    if ('result' in object) return cellOf(object.result);
    if (typeof object.text === 'string') return object.text;
  }
  return null;
}

import { once, type EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { ExportColumn } from './columns.ts';

/** The formats of an export and what each answers as. */
export const EXPORT_FORMATS = {
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/**
 * Writes an export's rows to a stream, a page at a time: `page` resolves once the stream can take
 * more (its buffer drained), so an export holds at most a page or two however many rows it has.
 */
export interface ExportWriter {
  /** Writes a page of records (the header row goes before the first). */
  page(records: readonly Record<string, unknown>[]): Promise<void>;
  /** Writes what closes the file and ends the stream. */
  end(): Promise<void>;
}

/** Resolves when `out` can take more: at once, or at its `drain`; rejects when `signal` aborts (the client left). */
export async function writable(out: Writable, signal?: AbortSignal): Promise<void> {
  if (out.writableNeedDrain) await once(out, 'drain', signal ? { signal } : {});
}

/**
 * RFC 4180 CSV by csv-stringify: UTF-8 with a byte order mark (spreadsheet programs then read
 * Turkish letters as such), CRLF between records, fields quoted when they hold a comma, quote or
 * line break; the header row holds the columns' labels.
 */
export function csvWriter(out: Writable, columns: readonly ExportColumn[], signal?: AbortSignal): ExportWriter {
  let started = false;
  return {
    async page(records) {
      const rows = records.map((record) => columns.map((column) => column.csv(record[column.name])));
      if (!started) rows.unshift(columns.map((column) => column.header));
      // a line break of either kind inside a field is quoted (the default looks for the record delimiter, CRLF, alone)
      const text = stringify(rows, { bom: !started, record_delimiter: 'windows', quoted_match: /[\r\n]/ });
      started = true;
      out.write(text);
      await writable(out, signal);
    },
    async end() {
      // an export of no records is the header row alone
      if (!started) await this.page([]);
      out.end();
      await once(out, 'finish', signal ? { signal } : {}).catch(() => undefined);
    },
  };
}

/**
 * XLSX by exceljs's streaming WorkbookWriter: one worksheet, the header row first (bold, frozen),
 * each row committed as it is written (written out, never kept), inline strings rather than a
 * shared-strings table (which would grow with the export), numbers as number cells and dates as
 * date cells.
 */
export function xlsxWriter(out: Writable, columns: readonly ExportColumn[], sheetName: string, signal?: AbortSignal): ExportWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  // a sheet's name: at most 31 characters, none of []:*?/\
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Export', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = columns.map((column) => ({ key: column.name, width: Math.min(Math.max(column.header.length + 2, 12), 40) }));
  const header = sheet.addRow(columns.map((column) => column.header));
  header.font = { bold: true };
  header.commit();
  const formats = columns.map((column) => column.xlsxFormat);
  // the zip stream exceljs writes through (archiver): what it has made and the response not yet taken
  const zip = (workbook as unknown as { zip?: Readable }).zip;
  return {
    async page(records) {
      for (const record of records) {
        const row = sheet.addRow(columns.map((column) => column.xlsx(record[column.name])));
        formats.forEach((format, index) => {
          if (format) row.getCell(index + 1).numFmt = format;
        });
        row.commit();
      }
      // looked up at each page: exceljs pipes the sheet to its deflater once the zip starts the entry
      await zipSettled(out, zip, sheetInput(sheet), signal);
    },
    async end() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

/** Most bytes the zip stream may hold for the response before the next page is added. */
const ZIP_BACKLOG = 256 * 1024;

/** The writable end a worksheet's XML goes into, as far as the wait for it needs: readable-stream 2's or node's state. */
interface SheetInput {
  _writableState?: { needDrain?: boolean };
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * The stream a worksheet's XML goes into: the pass-through archiver reads the zip entry from, which
 * exceljs (4.4.0) writes to from the sheet's buffer without waiting (its StreamBuf ignores what a
 * write returns): rows added faster than the deflater takes them pile up there, the whole sheet
 * in the end (exceljs/exceljs#2916). Undefined when exceljs is built otherwise: then only the
 * response and the zip's output are waited for.
 */
export function sheetInput(sheet: unknown): SheetInput | undefined {
  const pipes = (sheet as { _stream?: { pipes?: unknown[] } })._stream?.pipes;
  const first = Array.isArray(pipes) ? (pipes[0] as SheetInput | undefined) : undefined;
  return first && typeof first.once === 'function' && typeof first._writableState === 'object' ? first : undefined;
}

/**
 * Resolves when the response has drained, the zip entry has taken the sheet's XML it was given and
 * the zip stream holds little for the response: the response's own drain alone would let the
 * entry's input and the zip's output pile up page by page.
 */
async function zipSettled(out: Writable, zip: Readable | undefined, input: SheetInput | undefined, signal?: AbortSignal): Promise<void> {
  for (;;) {
    await writable(out, signal);
    if (input?._writableState?.needDrain) await once(input as unknown as EventEmitter, 'drain', signal ? { signal } : {});
    else if (zip && zip.readableLength > ZIP_BACKLOG) await sleep(5, undefined, signal ? { signal } : {});
    else return;
  }
}

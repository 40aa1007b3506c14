import { once } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ExportColumn } from './columns.ts';
import { csvField, csvRecord } from './csv-text.ts';
import { xlsxSettled } from './exceljs-backpressure.ts';

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
 * RFC 4180 CSV (csv-text.ts): UTF-8 with a byte order mark (spreadsheet programs then read Turkish
 * letters as such), CRLF after every record, fields quoted when they hold a comma, quote or line
 * break; the header row holds the columns' labels. A page is one string, written at once: no array
 * of cells per row is made on the way.
 */
export function csvWriter(out: Writable, columns: readonly ExportColumn[], signal?: AbortSignal): ExportWriter {
  let started = false;
  return {
    async page(records) {
      let text = started ? '' : `\uFEFF${csvRecord(columns.map((column) => column.header))}`;
      started = true;
      for (const record of records) {
        for (let index = 0; index < columns.length; index++) {
          const column = columns[index] as ExportColumn;
          const field = csvField(column.csv(record[column.name]));
          text += index === 0 ? field : `,${field}`;
        }
        text += '\r\n';
      }
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
 * date cells; after each page it waits for the zip to take it (exceljs-backpressure.ts).
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
  return {
    async page(records) {
      for (const record of records) {
        const row = sheet.addRow(columns.map((column) => column.xlsx(record[column.name])));
        formats.forEach((format, index) => {
          if (format) row.getCell(index + 1).numFmt = format;
        });
        row.commit();
      }
      await xlsxSettled(out, workbook, sheet, signal);
    },
    async end() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

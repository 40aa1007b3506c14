/**
 * Backpressure for exceljs's streaming WorkbookWriter, which has none: a worksheet writes its XML
 * into the zip entry's input without waiting (its StreamBuf ignores what a write returns), so rows
 * added faster than the deflater takes them pile up there, the whole sheet in the end
 * (exceljs/exceljs#2916 and #734, both open). Until exceljs waits itself, an export waits here after
 * each page. This is the one module that reaches into exceljs, and only in the version it was read
 * in: `workbook.zip` (the archiver stream the workbook writes through) and the worksheet's
 * `_stream.pipes[0]` (the pass-through archiver reads the entry from). Under any other version it
 * touches neither and waits for the response alone, and test/export.test.ts fails, so an upgrade
 * comes back here.
 */
import { once, type EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

/** The exceljs whose internals this module was written against. */
export const EXCELJS_WRITTEN_FOR = '4.4.0';

/** The exceljs installed. */
export const EXCELJS_INSTALLED: string = (createRequire(import.meta.url)('exceljs/package.json') as { version: string }).version;

const KNOWN = EXCELJS_INSTALLED === EXCELJS_WRITTEN_FOR;

/** Most bytes the zip stream may hold for the response before the next page is added. */
const ZIP_BACKLOG = 256 * 1024;

/** The writable end a worksheet's XML goes into, as far as the wait for it needs: readable-stream 2's or node's state. */
export interface SheetInput {
  _writableState?: { needDrain?: boolean };
  once(event: 'drain', listener: () => void): unknown;
}

/** The zip entry's input of a worksheet, once the zip has started its entry; undefined otherwise or under another exceljs. */
export function sheetInput(sheet: unknown): SheetInput | undefined {
  if (!KNOWN) return undefined;
  const pipes = (sheet as { _stream?: { pipes?: unknown[] } })._stream?.pipes;
  const first = Array.isArray(pipes) ? (pipes[0] as SheetInput | undefined) : undefined;
  return first && typeof first.once === 'function' && typeof first._writableState === 'object' ? first : undefined;
}

/** The zip stream a streaming workbook writes through; undefined under another exceljs. */
export function workbookZip(workbook: unknown): Readable | undefined {
  return KNOWN ? (workbook as { zip?: Readable }).zip : undefined;
}

/**
 * Resolves when the response has drained, the zip entry has taken the sheet's XML it was given and
 * the zip stream holds little for the response: the response's own drain alone would let the
 * entry's input and the zip's output pile up page by page. The sheet's input is looked up each
 * time: exceljs pipes the sheet to its deflater once the zip starts the entry.
 */
export async function xlsxSettled(out: Writable, workbook: unknown, sheet: unknown, signal?: AbortSignal): Promise<void> {
  const zip = workbookZip(workbook);
  const input = sheetInput(sheet);
  const options = signal ? { signal } : {};
  for (;;) {
    if (out.writableNeedDrain) await once(out, 'drain', options);
    if (input?._writableState?.needDrain) await once(input as unknown as EventEmitter, 'drain', options);
    else if (zip && zip.readableLength > ZIP_BACKLOG) await sleep(5, undefined, options);
    else return;
  }
}

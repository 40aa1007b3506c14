/**
 * RFC 4180 CSV text, written here rather than by csv-stringify (docs/adr/0156-export-any-list.md):
 * csv-stringify 6.9.0 spends about 9 µs of the gateway's CPU on a row of 17 short fields, since each
 * field goes through its generic casting and option checks (a context object, a pair, arrays of
 * separators and closures per field, whatever the options); the same bytes written here cost under
 * 2 µs. Its output for the export's options (CRLF, `"` quote and escape, no quoting unless needed)
 * is what this writes: a field is quoted when it holds a comma, a double quote, a CR or an LF, and a
 * double quote inside is doubled. Cells arrive as text already neutralised (columns.ts).
 */

/** What makes a field quoted: the delimiter, the quote, or a line break of either kind (RFC 4180 §2.6). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * A field as written: quoted, with its quotes doubled, when it needs to be; else as it is.
 *
 * @example
 * csvField('Kartal, Ltd.') // "\"Kartal, Ltd.\""
 * csvField('say "hi"')     // "\"say \"\"hi\"\"\""
 * csvField('Kartal')       // "Kartal"
 */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A record: its fields, comma-separated, ended by CRLF. */
export function csvRecord(fields: readonly string[]): string {
  let line = '';
  for (let index = 0; index < fields.length; index++) line += index === 0 ? csvField(fields[index] as string) : `,${csvField(fields[index] as string)}`;
  return `${line}\r\n`;
}

/**
 * Numbers and tables as the scenarios print them.
 */

/** A number with fixed decimals and thousands separators; `-` for NaN. */
export function fmt(value: number, decimals = 0): string {
  if (!Number.isFinite(value)) return '-';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A plain text table: the first column left-aligned, the others right-aligned. */
export function printTable(columns: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = columns.map((column, i) => Math.max(column.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** How the documents pages show sizes, times and a file's name, in the console's language. */
import type { Language } from '../../shell/language.ts';
import { formatDateTime } from '../../shell/formats.ts';
import type { DmsFile } from './dms.api.ts';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** `52428800` → `50 MB` (binary multiples, one decimal below 10). */
export function formatBytes(bytes: number, language: Language): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toLocaleString(language, { maximumFractionDigits: digits })} ${UNITS[unit]}`;
}

/** An ISO instant as a local date and time; empty for none. */
export function formatInstant(iso: string | null | undefined, language: Language): string {
  if (!iso) return '';
  return formatDateTime(iso, language);
}

/**
 * A file's name as uploaded, or `#<id>` for a record without one (the API document allows a null
 * name, and a link or heading must still name something).
 */
export function fileLabel(file: Pick<DmsFile, 'id' | 'originalFileName'>): string {
  return file.originalFileName ?? `#${file.id}`;
}

/** A whole percentage of `sent` out of `total` (100 for an empty file). */
export function percentOf(sent: number, total: number): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.floor((sent / total) * 100));
}

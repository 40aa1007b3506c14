import type { Language } from '../../shell/language.ts';
import { formatDateTime } from '../../shell/formats.ts';

/** An ISO instant in the console's language and the browser's time zone; empty for none. */
export function formatInstant(iso: string | null | undefined, language: Language): string {
  if (!iso) return '';
  return formatDateTime(iso, language);
}

/** A datetime-local input's value as an ISO instant (the browser's zone); undefined when empty. */
export function localToIso(value: string): string | undefined {
  if (value === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

import type { Language } from '../../shell/language.ts';

/** An ISO instant in the console's language and the browser's time zone; empty for none. */
export function formatInstant(iso: string | null | undefined, language: Language): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(language === 'tr' ? 'tr-TR' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A datetime-local input's value as an ISO instant (the browser's zone); undefined when empty. */
export function localToIso(value: string): string | undefined {
  if (value === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

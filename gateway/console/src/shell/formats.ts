/**
 * One way per language to write dates, times, numbers and money, for display and for typing
 * (docs/adr/0120-money-and-dates-one-format.md): English `28/11/2026`, Turkish `28.11.2026`, day
 * first in both; times in 24 hours; money as Intl writes the currency in the language
 * (`₺1,500.00`, `₺1.500,00`). The formatters are made once per language: a list page shows forty
 * values.
 *
 * @example
 * formatDate('2026-11-28', 'tr') // '28.11.2026'
 * parseDate('28.11.2026', 'tr') // '2026-11-28'
 * formatMoney('1500.0000', 'TRY', 'en') // '₺1,500.00'
 */
/** The Intl locale of each language (language.ts; a language without one is a compile error where it is formatted). */
export const LOCALES = { en: 'en-GB', tr: 'tr-TR' } as const;

/** The console's languages, as this file knows them: no import, so that it also runs outside the browser (its tests). */
type Language = keyof typeof LOCALES;

/** How a date is written and typed, as a hint beside a date input. */
export const DATE_HINT = { en: 'dd/mm/yyyy', tr: 'gg.aa.yyyy' } as const satisfies Record<Language, string>;

const SEPARATOR = { en: '/', tr: '.' } as const satisfies Record<Language, string>;

const DATE_TIMES = {
  en: dateTimeFormat('en'),
  tr: dateTimeFormat('tr'),
};

function dateTimeFormat(language: Language): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(LOCALES[language], {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
}

/** A calendar date (`YYYY-MM-DD`, no time zone) as the language writes it; anything else as it came. */
export function formatDate(iso: string, language: Language): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!parts) return iso;
  const separator = SEPARATOR[language];
  return `${parts[3]}${separator}${parts[2]}${separator}${parts[1]}`;
}

/** An instant as the language writes its local date (formatDate's) and 24-hour time: `28/11/2026 14:05`. */
export function formatDateTime(value: string | Date, language: Language): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  const parts = Object.fromEntries(DATE_TIMES[language].formatToParts(date).map((part) => [part.type, part.value]));
  const separator = SEPARATOR[language];
  return `${parts.day}${separator}${parts.month}${separator}${parts.year} ${parts.hour}:${parts.minute}`;
}

/**
 * A typed date as `YYYY-MM-DD`, or undefined when it names no day: day, month and year in the
 * language's order (day first in both), separated by `/`, `.`, `,`, `-` or a space, or by nothing
 * (`28112026`, two digits of day and month); a two-digit year is
 * of this century. `YYYY-MM-DD` itself is taken too (pasted from elsewhere).
 */
export function parseDate(text: string, language: Language): string | undefined {
  void language; // both languages write the day first; kept for a language that will not
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  // separators of any keyboard, or none: a phone's number pad has only digits (28112026)
  const local = /^(\d{1,2})[/.,\-\s](\d{1,2})[/.,\-\s](\d{2}|\d{4})$/.exec(trimmed) ?? /^(\d{2})(\d{2})(\d{4})$/.exec(trimmed);
  const [year, month, day] = iso ? [iso[1], iso[2], iso[3]] : local ? [local[3], local[2], local[1]] : [];
  if (!year || !month || !day) return undefined;
  const y = year.length === 2 ? 2000 + Number(year) : Number(year);
  const date = new Date(Date.UTC(y, Number(month) - 1, Number(day)));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) return undefined;
  return date.toISOString().slice(0, 10);
}

/** How a date and time is written and typed. */
export const DATE_TIME_HINT = { en: 'dd/mm/yyyy hh:mm', tr: 'gg.aa.yyyy ss:dd' } as const satisfies Record<Language, string>;

/** A local date and time (`YYYY-MM-DDTHH:mm[:ss]`, as a datetime-local control holds it) as the language writes it. */
export function formatLocalDateTime(local: string, language: Language): string {
  const parts = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(local);
  return parts?.[1] && parts[2] ? `${formatDate(parts[1], language)} ${parts[2]}` : local;
}

/**
 * A typed date and time as `YYYY-MM-DDTHH:mm:ss` (local, as a datetime-local control holds it), or
 * undefined: parseDate's date, then a space and a 24-hour `HH:mm` or `HH:mm:ss`; a date alone is
 * its midnight.
 */
export function parseLocalDateTime(text: string, language: Language): string | undefined {
  const parts = /^(.+?)[\sT,]+(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  const day = parseDate(parts?.[1] ?? text, language);
  if (!day) return undefined;
  if (!parts) return `${day}T00:00:00`;
  const [hours, minutes, seconds] = [Number(parts[2]), Number(parts[3]), Number(parts[4] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day}T${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
}

/** The first and last instant of a local day (`YYYY-MM-DD`), for a time range typed as dates. */
export function dayBounds(iso: string): { start: string; end: string } {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return { start: new Date(y, m - 1, d).toISOString(), end: new Date(y, m - 1, d, 23, 59, 59, 999).toISOString() };
}

/** The local day (`YYYY-MM-DD`) of an instant. */
export function localDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const numbers = new Map<string, Intl.NumberFormat>();

function numberFormat(language: Language, currency?: string): Intl.NumberFormat {
  const key = `${language}/${currency ?? ''}`;
  let format = numbers.get(key);
  if (!format) {
    format = currency
      ? new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
      : new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: 4 });
    numbers.set(key, format);
  }
  return format;
}

/** A decimal string as the language writes numbers (`1.500,25` in Turkish), up to four decimals. */
export function formatDecimal(amount: string, language: Language): string {
  const value = Number(amount);
  return amount.trim() === '' || Number.isNaN(value) ? amount : numberFormat(language).format(value);
}

/** An amount in its currency (an ISO 4217 code) as the language writes money; the amount and code as they came when the code is none Intl knows. */
export function formatMoney(amount: string, currency: string, language: Language): string {
  const value = Number(amount);
  if (amount.trim() === '' || Number.isNaN(value)) return amount;
  try {
    return numberFormat(language, currency).format(value);
  } catch {
    return `${formatDecimal(amount, language)} ${currency}`;
  }
}

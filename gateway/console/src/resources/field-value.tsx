import { useContext } from 'react';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';
import { ReferenceValue } from './reference-value.tsx';
import { valueLabel } from './labels.ts';

/** The locale of dates and times in each language. */
export const LOCALES = { en: 'en-GB', tr: 'tr-TR' } as const;

/**
 * Date and time as `Date.toLocaleString(locale)` writes them, one formatter per language: each
 * toLocaleString with a locale builds a new Intl.DateTimeFormat, and a list page shows forty.
 */
const DATE_TIMES = {
  en: new Intl.DateTimeFormat(LOCALES.en, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }),
  tr: new Intl.DateTimeFormat(LOCALES.tr, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }),
} as const;

/**
 * A record's value as people read it: words for booleans (`status` as Active/Passive), local date
 * and time, references by the referenced record's name, lists and rows as short text.
 */
export function FieldValue({ field, value }: { field: ConsoleField; value: unknown }) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  if (value === undefined || value === null || value === '') return <span className="muted">—</span>;
  if (field.references && (typeof value === 'string' || typeof value === 'number')) return <ReferenceValue field={field} value={value} />;
  switch (field.kind) {
    case 'boolean':
      if (field.name === 'status') return <>{value ? t('active') : t('passive')}</>;
      return <>{value ? t('yes') : t('no')}</>;
    case 'datetime': {
      const date = new Date(String(value));
      return <time dateTime={String(value)}>{Number.isNaN(date.getTime()) ? String(value) : DATE_TIMES[language].format(date)}</time>;
    }
    case 'date':
      return <time dateTime={String(value)}>{String(value)}</time>;
    case 'enum':
      return <>{valueLabel(field, String(value), language)}</>;
    case 'strings':
      return <>{Array.isArray(value) ? value.join(', ') : String(value)}</>;
    case 'objects':
      return <>{Array.isArray(value) ? value.map((row) => Object.values(row as object).join(' / ')).join('; ') : JSON.stringify(value)}</>;
    default:
      return <>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</>;
  }
}

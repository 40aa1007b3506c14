import { useContext } from 'react';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { formatDate, formatDateTime, formatDecimal, formatMoney } from '../shell/formats.ts';
import { crudMessages } from './messages.ts';
import { ReferenceValue } from './reference-value.tsx';
import { valueLabel } from './labels.ts';

/** The locale of dates and times in each language (shell/formats.ts). */
export { LOCALES } from '../shell/formats.ts';

/**
 * A record's value as people read it (shell/formats.ts): words for booleans (`status` as
 * Active/Passive), dates and times in the language's one format, numbers as the language writes
 * them, money (a decimal its resource declares so) with the currency of its `record`, references by
 * the referenced record's name, lists and rows as short text.
 */
export function FieldValue({ field, value, record }: { field: ConsoleField; value: unknown; record?: Readonly<Record<string, unknown>> }) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  if (value === undefined || value === null || value === '') return <span className="muted">—</span>;
  if (field.references && (typeof value === 'string' || typeof value === 'number')) return <ReferenceValue field={field} value={value} />;
  switch (field.kind) {
    case 'boolean':
      if (field.name === 'status') return <>{value ? t('active') : t('passive')}</>;
      return <>{value ? t('yes') : t('no')}</>;
    case 'datetime':
      return <time dateTime={String(value)}>{formatDateTime(String(value), language)}</time>;
    case 'date':
      return <time dateTime={String(value)}>{formatDate(String(value), language)}</time>;
    case 'enum':
      return <>{valueLabel(field, String(value), language)}</>;
    case 'decimal': {
      const currency = field.currencyField ? record?.[field.currencyField] : undefined;
      const text = typeof currency === 'string' && currency !== '' ? formatMoney(String(value), currency, language) : formatDecimal(String(value), language);
      return <span className="number">{text}</span>;
    }
    case 'strings':
      return <>{Array.isArray(value) ? value.join(', ') : String(value)}</>;
    case 'objects':
      return <>{Array.isArray(value) ? value.map((row) => Object.values(row as object).join(' / ')).join('; ') : JSON.stringify(value)}</>;
    default:
      return <>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</>;
  }
}

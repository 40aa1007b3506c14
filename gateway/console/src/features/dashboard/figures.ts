import type { operations } from '@platform/client/schema.d.ts';
import type { Language } from '../../shell/language.ts';

/** GET /api/accrual/summary (docs/interface.md#partner-operations), as the API document gives it. */
export type AccrualSummary = operations['accrualSummary']['responses'][200]['content']['application/json'];

export const STATES = ['PENDING', 'APPROVED', 'INVOICED', 'CANCELLED'] as const;

const locale = (language: Language) => (language === 'tr' ? 'tr-TR' : 'en-GB');

/** An amount (a decimal string) in its currency, as the reader's language writes it. */
export function formatAmount(amount: string | number, currency: string, language: Language): string {
  try {
    return new Intl.NumberFormat(locale(language), { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}

export function formatCount(count: number, language: Language): string {
  return new Intl.NumberFormat(locale(language)).format(count);
}

/** Bytes in the largest unit that keeps the number at least 1 (B, kB, MB, GB, TB; powers of 1000). */
export function formatBytes(bytes: number, language: Language): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(locale(language), { style: 'unit', unit: units[unit], unitDisplay: 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(
    value,
  );
}

export function formatPercent(share: number, language: Language): string {
  return new Intl.NumberFormat(locale(language), { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/** The currencies of a summary, the one with the most accruals first. */
export function currenciesOf(summary: AccrualSummary): string[] {
  const counts = new Map<string, number>();
  for (const row of summary.states) counts.set(row.currencyCode, (counts.get(row.currencyCode) ?? 0) + row.count);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([currency]) => currency);
}

/** Every month from `first` to `last` (YYYY-MM), both included. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let [year, month] = first.split('-').map(Number) as [number, number];
  for (let guard = 0; guard < 600; guard++) {
    const label = `${year}-${String(month).padStart(2, '0')}`;
    months.push(label);
    if (label >= last) break;
    month++;
    if (month > 12) {
      month = 1;
      year++;
    }
  }
  return months;
}

/** The months of one currency, gaps filled with 0, the last `limit` months of the data. */
export function monthSeries(summary: AccrualSummary, currency: string, limit = 24): { month: string; amount: number; text: string }[] {
  const rows = summary.months.filter((row) => row.currencyCode === currency);
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return [];
  const byMonth = new Map(rows.map((row) => [row.month, row.amount]));
  return monthsBetween(first.month, last.month)
    .slice(-limit)
    .map((month) => ({ month, amount: Number(byMonth.get(month) ?? 0), text: byMonth.get(month) ?? '0' }));
}

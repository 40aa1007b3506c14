/**
 * The list's search and filter form as Refine filters and back: a text field by equality, or by
 * prefix or containment where its list declares so (Refine's `startswith` / `contains`, sent as
 * `<field>Prefix` / `<field>Contains`), an enum by equality, a boolean as yes/no/any, a number,
 * date or time by `From`/`To` (docs/interface.md#lists), and the search box as SEARCH_FIELD (the data
 * provider's searchTerm). Dates are held as `YYYY-MM-DD` (the date input shows them in the
 * language's format); a time range is typed as days, from the first instant of the first day to
 * the last of the last.
 */
import type { CrudFilter } from '@refinedev/core';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { dayBounds, localDay } from '../shell/formats.ts';
import { SEARCH_FIELD } from './data-provider.ts';

/** The filter form's texts by control name (`field`, `fieldFrom`, `fieldTo`, SEARCH_FIELD). */
export type FilterDraft = Readonly<Record<string, string>>;

/** The value a filter sends for what its control holds (numbers as numbers, days as the instants that bound them). */
export function filterValue(field: ConsoleField, text: string, end?: 'From' | 'To'): unknown {
  if (field.kind === 'boolean') return text === 'true';
  if ((field.kind === 'long' || field.kind === 'int') && text.trim() !== '') return Number(text);
  if (field.kind === 'decimal') return text.replace(',', '.');
  if (field.kind === 'datetime') return end === 'To' ? dayBounds(text).end : dayBounds(text).start;
  return text;
}

/** A range filter applies to numbers, dates and times; a reference is matched by equality. */
export function isRange(field: ConsoleField): boolean {
  return field.range && !field.references;
}

/** Refine's operator of a field's own filter: equality, or the text match its list declares. */
function operatorOf(field: ConsoleField): 'eq' | 'startswith' | 'contains' {
  if (field.references) return 'eq';
  return field.match === 'prefix' ? 'startswith' : field.match === 'contains' ? 'contains' : 'eq';
}

/** Refine's filters of what the filter form holds; empty controls filter nothing. */
export function filtersOf(fields: readonly ConsoleField[], draft: FilterDraft): CrudFilter[] {
  const filters: CrudFilter[] = [];
  if (draft[SEARCH_FIELD]) filters.push({ field: SEARCH_FIELD, operator: 'contains', value: draft[SEARCH_FIELD] });
  for (const field of fields) {
    if (isRange(field)) {
      const from = draft[`${field.name}From`];
      const to = draft[`${field.name}To`];
      if (from) filters.push({ field: field.name, operator: 'gte', value: filterValue(field, from, 'From') });
      if (to) filters.push({ field: field.name, operator: 'lte', value: filterValue(field, to, 'To') });
    } else {
      const value = draft[field.name];
      if (value) filters.push({ field: field.name, operator: operatorOf(field), value: filterValue(field, value) });
    }
  }
  return filters;
}

/** The form's values of filters already applied (from the address, after a reload). */
export function draftOf(filters: readonly CrudFilter[]): Record<string, string> {
  const draft: Record<string, string> = {};
  for (const each of filters) {
    if (!('field' in each) || each.field === 'crProcessId' || each.value === undefined || each.value === null) continue;
    const name = each.operator === 'gte' ? `${each.field}From` : each.operator === 'lte' ? `${each.field}To` : each.field;
    draft[name] = typeof each.value === 'string' && /T\d\d:\d\d/.test(each.value) ? localDay(each.value) : String(each.value);
  }
  return draft;
}

/** An ISO time as a datetime-local control shows it (local, to the second). */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

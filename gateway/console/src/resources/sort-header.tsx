import type { CrudSort } from '@refinedev/core';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/**
 * A column header; a sortable one is a button cycling ascending → descending → unsorted, its state
 * in `aria-sort` and in words (not by an arrow alone).
 */
export function SortHeader({
  field,
  label,
  sorters,
  onSort,
}: {
  field: ConsoleField;
  label: string;
  sorters: readonly CrudSort[];
  onSort: (sorters: CrudSort[]) => void;
}) {
  const t = useT(crudMessages);
  if (!field.sortable) return <th scope="col">{label}</th>;
  const order = sorters.find((sort) => sort.field === field.name)?.order;
  const next: CrudSort[] = order === undefined ? [{ field: field.name, order: 'asc' }] : order === 'asc' ? [{ field: field.name, order: 'desc' }] : [];
  return (
    <th scope="col" aria-sort={order ? ARIA_SORT[order] : 'none'}>
      <button type="button" className="sort-button" title={t('sortBy', { field: label })} onClick={() => onSort(next)}>
        {label}
        <span aria-hidden="true" className="sort-mark">
          {order === 'asc' ? ' ▲' : order === 'desc' ? ' ▼' : ' ↕'}
        </span>
      </button>
    </th>
  );
}

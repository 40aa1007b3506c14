import { useContext, useId, useState, type ReactNode } from 'react';
import type { CrudFilter } from '@refinedev/core';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { SEARCH_FIELD } from './data-provider.ts';
import { crudMessages } from './messages.ts';
import { listMessages } from './list-messages.ts';
import { fieldLabel } from './labels.ts';
import { ScalarInput } from './field-input.tsx';
import { draftOf, filtersOf, isRange } from './filter-values.ts';

/** A draft's control names of a field: its own, or its range's two ends. */
const controlsOf = (field: ConsoleField): string[] => (isRange(field) ? [`${field.name}From`, `${field.name}To`] : [field.name]);

/**
 * The list's search box and, folded under "Filters", the resource's declared filters, with the
 * other filterable fields (ids, versions, audit stamps) behind "More filters", open by itself when
 * one of them is applied. Apply (or Enter) sets them, Clear removes them. Tab order: search, its
 * button, the filters.
 */
export function ListFilters({
  primary,
  more,
  filters,
  crProcessId,
  onApply,
}: {
  /** The filters the resource declares (`list.filters`), shown once "Filters" is open. */
  primary: readonly ConsoleField[];
  /** The other filterable fields, behind "More filters". */
  more: readonly ConsoleField[];
  filters: readonly CrudFilter[];
  crProcessId: number;
  onApply: (filters: CrudFilter[]) => void;
}) {
  const t = useT(crudMessages);
  const tl = useT(listMessages);
  const language = useContext(LanguageContext);
  const id = useId();
  const [draft, setDraft] = useState<Record<string, string>>(() => draftOf(filters));
  const appliedNames = Object.keys(draftOf(filters)).filter((name) => name !== SEARCH_FIELD);
  const [showMore, setShowMore] = useState(() => more.some((field) => controlsOf(field).some((name) => appliedNames.includes(name))));
  const set = (name: string) => (value: string) => setDraft((previous) => ({ ...previous, [name]: value }));
  const fields = [...primary, ...more];

  const control = (field: ConsoleField): ReactNode => {
    const label = fieldLabel(field, language);
    const controlId = `${id}-${field.name}`;
    if (field.kind === 'boolean') {
      return (
        <div key={field.name} className="filter">
          <label htmlFor={controlId}>{label}</label>
          <select id={controlId} value={draft[field.name] ?? ''} onChange={(event) => set(field.name)(event.target.value)}>
            <option value="">{t('any')}</option>
            <option value="true">{field.name === 'status' ? t('active') : t('yes')}</option>
            <option value="false">{field.name === 'status' ? t('passive') : t('no')}</option>
          </select>
        </div>
      );
    }
    if (isRange(field)) {
      return (
        <div key={field.name} className="filter range">
          {(['From', 'To'] as const).map((end) => (
            <div key={end}>
              <label htmlFor={`${controlId}-${end}`}>{t(end === 'From' ? 'from' : 'to', { field: label })}</label>
              <ScalarInput
                id={`${controlId}-${end}`}
                field={field}
                value={draft[`${field.name}${end}`] ?? ''}
                onChange={set(`${field.name}${end}`)}
                crProcessId={crProcessId}
                filter
              />
            </div>
          ))}
        </div>
      );
    }
    const matched = !field.references && field.match ? tl(field.match === 'prefix' ? 'startsWith' : 'contains', { field: label }) : label;
    return (
      <div key={field.name} className="filter">
        <label htmlFor={controlId}>{matched}</label>
        <ScalarInput
          id={controlId}
          field={field}
          value={draft[field.name] ?? ''}
          onChange={set(field.name)}
          crProcessId={crProcessId}
          emptyLabel={t('any')}
          filter
        />
      </div>
    );
  };

  return (
    <form
      role="search"
      className="list-filters"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(filtersOf(fields, draft));
      }}
    >
      <div className="search-row">
        <label htmlFor={`${id}-search`}>{t('search')}</label>
        <input id={`${id}-search`} type="search" value={draft[SEARCH_FIELD] ?? ''} onChange={(event) => set(SEARCH_FIELD)(event.target.value)} />
        <button type="submit" className="primary">
          {t('search')}
        </button>
      </div>
      {fields.length > 0 ? (
        <details open={appliedNames.length > 0 || undefined}>
          <summary>
            {t('filters')}
            {appliedNames.length > 0 ? ` (${appliedNames.length})` : ''}
          </summary>
          {primary.length > 0 ? <div className="filter-grid">{primary.map(control)}</div> : null}
          {more.length > 0 ? (
            <>
              <button type="button" aria-expanded={showMore} aria-controls={`${id}-more`} onClick={() => setShowMore(!showMore)}>
                {showMore ? tl('fewerFilters') : tl('moreFilters')}
              </button>
              <div id={`${id}-more`} className="filter-grid" hidden={!showMore}>
                {showMore ? more.map(control) : null}
              </div>
            </>
          ) : null}
          <div className="actions">
            <button type="submit" className="primary">
              {t('apply')}
            </button>
            <button
              type="button"
              onClick={() => {
                const kept: Record<string, string> = draft[SEARCH_FIELD] ? { [SEARCH_FIELD]: draft[SEARCH_FIELD] } : {};
                setDraft(kept);
                onApply(filtersOf(fields, kept));
              }}
            >
              {t('clear')}
            </button>
          </div>
        </details>
      ) : null}
    </form>
  );
}

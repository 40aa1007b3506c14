import { useContext, useId, useState } from 'react';
import type { CrudFilter } from '@refinedev/core';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { SEARCH_FIELD } from './data-provider.ts';
import { crudMessages } from './messages.ts';
import { fieldLabel } from './labels.ts';
import { ScalarInput } from './field-input.tsx';
import { draftOf, filtersOf, isRange } from './filter-values.ts';

/**
 * The list's search box and, folded under "Filters", one control per filterable field; Apply (or
 * Enter) sets them, Clear removes them. Tab order: search, its button, the filters.
 */
export function ListFilters({
  fields,
  filters,
  crProcessId,
  onApply,
}: {
  fields: readonly ConsoleField[];
  filters: readonly CrudFilter[];
  crProcessId: number;
  onApply: (filters: CrudFilter[]) => void;
}) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const id = useId();
  const [draft, setDraft] = useState<Record<string, string>>(() => draftOf(filters));
  const set = (name: string) => (value: string) => setDraft((previous) => ({ ...previous, [name]: value }));
  const applied = Object.keys(draftOf(filters)).filter((name) => name !== SEARCH_FIELD).length;

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
        <details open={applied > 0 || undefined}>
          <summary>
            {t('filters')}
            {applied > 0 ? ` (${applied})` : ''}
          </summary>
          <div className="filter-grid">
            {fields.map((field) => {
              const label = fieldLabel(field, language);
              const control = `${id}-${field.name}`;
              if (field.kind === 'boolean') {
                return (
                  <div key={field.name} className="filter">
                    <label htmlFor={control}>{label}</label>
                    <select id={control} value={draft[field.name] ?? ''} onChange={(event) => set(field.name)(event.target.value)}>
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
                        <label htmlFor={`${control}-${end}`}>{t(end === 'From' ? 'from' : 'to', { field: label })}</label>
                        <ScalarInput
                          id={`${control}-${end}`}
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
              return (
                <div key={field.name} className="filter">
                  <label htmlFor={control}>{label}</label>
                  <ScalarInput
                    id={control}
                    field={field}
                    value={draft[field.name] ?? ''}
                    onChange={set(field.name)}
                    crProcessId={crProcessId}
                    emptyLabel={t('any')}
                    filter
                  />
                </div>
              );
            })}
          </div>
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

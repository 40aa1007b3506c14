import { useContext, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleField, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { EVENT_LABELS, type EventWhat } from '@platform/contracts/event-labels.ts';
import { answer, ApiError, platform } from '../shell/api.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import type { Language } from '../shell/language.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { crudMessages } from './messages.ts';
import { fieldLabel, humanize } from './labels.ts';
import { FieldValue } from './field-value.tsx';

const SIZE = 20;

/**
 * Fields an event's own columns already say (who, when) or that name the record's bookkeeping, not
 * its content: left out of the changes people read.
 */
const INTERNAL = new Set(['id', 'version', 'crProcessId', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

/** When an event happened, shown as the records' own times are (one format per language). */
const OCCURRED: ConsoleField = { name: 'occurredAt', kind: 'datetime', label: { en: 'When', tr: 'Ne zaman' }, sortable: false, range: false };

/** "Approved" for `accrual.approved`: the catalogue's words for the last part of the event's type. */
function eventLabel(type: string, language: Language): string {
  const what = type.slice(type.indexOf('.') + 1);
  return (EVENT_LABELS as Partial<Record<string, { en: string; tr: string }>>)[what as EventWhat]?.[language] ?? humanize(what);
}

/**
 * A record's events, newest first (`GET /api/{path}/{key}/history`, docs/interface.md#history), as
 * people read them: when, who, what happened, and each changed field by its label with its values
 * as the record page shows them (enum labels, yes/no, local dates, references by name as links);
 * bookkeeping fields left out. Read again when `round` (a page's count of its own moves) or
 * `version` (the record's, as the page last read it) changes, so every move shows at once.
 */
export function RecordHistory({ resource, keyValue, round = 0, version }: { resource: ConsoleResource; keyValue: string; round?: number; version?: unknown }) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const headingId = useId();
  const [page, setPage] = useState(0);
  const history = useQuery({
    queryKey: ['console', 'history', resource.path, keyValue, page, round, version],
    queryFn: ({ signal }) =>
      answer(
        platform.GET('/api/{resource}/{key}/history', { params: { path: { resource: resource.path, key: keyValue }, query: { page, size: SIZE } }, signal }),
      ),
    retry: false,
  });
  const fieldOf = (name: string): ConsoleField =>
    resource.fields.find((field) => field.name === name) ?? {
      name,
      kind: 'string',
      label: { en: humanize(name), tr: humanize(name) },
      sortable: false,
      range: false,
    };
  // changes in the order the record page shows its fields
  const order = (name: string) => {
    const index = resource.fields.findIndex((field) => field.name === name);
    return index === -1 ? resource.fields.length : index;
  };
  const events = history.data?.content ?? [];
  const noEvents = history.error instanceof ApiError && history.error.status === 404;
  return (
    <section aria-labelledby={headingId} className="history">
      <h2 id={headingId}>{t('history')}</h2>
      {/* a record with no events yet (a webhook delivery: the platform's own work) is 404: no history, not an error */}
      {noEvents ? null : <ErrorAlert error={history.error} />}
      {(history.isSuccess && events.length === 0) || noEvents ? <p>{t('historyEmpty')}</p> : null}
      {events.length > 0 ? (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('when')}</th>
              <th scope="col">{t('who')}</th>
              <th scope="col">{t('type')}</th>
              <th scope="col">{t('changes')}</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => {
              // a creation's values have no before
              const created = event.type.endsWith('.created') || event.type.endsWith('.uploaded');
              return (
                <tr key={event.id}>
                  <td data-label={t('when')}>
                    <FieldValue field={OCCURRED} value={event.occurredAt} />
                  </td>
                  <td data-label={t('who')}>{event.userCode}</td>
                  <td data-label={t('type')}>{eventLabel(event.type, language)}</td>
                  <td data-label={t('changes')}>
                    <ul className="changes">
                      {Object.entries(event.changes ?? {})
                        .filter(([name]) => !INTERNAL.has(name))
                        .sort(([a], [b]) => order(a) - order(b))
                        .map(([name, change]) => {
                          const field = fieldOf(name);
                          return (
                            <li key={name}>
                              <span className="change-field">{fieldLabel(field, language)}</span>:{' '}
                              {created ? null : (
                                <>
                                  <FieldValue field={field} value={change.from} /> →{' '}
                                </>
                              )}
                              <FieldValue field={field} value={change.to} />
                            </li>
                          );
                        })}
                    </ul>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {page > 0 || (history.data && !history.data.last) ? (
        <div className="actions">
          <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
            {t('newerHistory')}
          </button>
          <button type="button" disabled={history.data?.last !== false} onClick={() => setPage(page + 1)}>
            {t('olderHistory')}
          </button>
        </div>
      ) : null}
    </section>
  );
}

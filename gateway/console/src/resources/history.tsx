import { useContext, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { answer, platform } from '../shell/api.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { crudMessages } from './messages.ts';
import { fieldLabel } from './labels.ts';
import { LOCALES } from './field-value.tsx';

const SIZE = 20;

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * A record's events, newest first (`GET /api/{path}/{key}/history`, docs/interface.md#history): who,
 * when, what, each field from → to. `round` (a page's count of its own moves) reads it again.
 */
export function RecordHistory({ resource, keyValue, round = 0 }: { resource: ConsoleResource; keyValue: string; round?: number }) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const headingId = useId();
  const [page, setPage] = useState(0);
  const history = useQuery({
    queryKey: ['console', 'history', resource.path, keyValue, page, round],
    queryFn: ({ signal }) =>
      answer(
        platform.GET('/api/{resource}/{key}/history', { params: { path: { resource: resource.path, key: keyValue }, query: { page, size: SIZE } }, signal }),
      ),
    retry: false,
  });
  const label = (name: string) => fieldLabel(resource.fields.find((field) => field.name === name) ?? { name }, language);
  const events = history.data?.content ?? [];
  return (
    <section aria-labelledby={headingId} className="history">
      <h2 id={headingId}>{t('history')}</h2>
      <ErrorAlert error={history.error} />
      {history.isSuccess && events.length === 0 ? <p>{t('historyEmpty')}</p> : null}
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
            {events.map((event) => (
              <tr key={event.id}>
                <td>
                  <time dateTime={event.occurredAt}>{new Date(event.occurredAt).toLocaleString(LOCALES[language])}</time>
                </td>
                <td>{event.userCode}</td>
                <td>{event.type}</td>
                <td>
                  <ul className="changes">
                    {Object.entries(event.changes ?? {}).map(([name, change]) => (
                      <li key={name}>{t('change', { field: label(name), from: shown(change.from), to: shown(change.to) })}</li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
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

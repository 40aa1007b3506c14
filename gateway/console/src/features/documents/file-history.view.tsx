/** A file's history (GET /api/dms-file/{id}/history): who did what when, and each change from → to. */
import { useContext, useState } from 'react';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { historyOf } from './dms.api.ts';
import { documentsMessages } from './documents.messages.ts';
import { formatInstant } from './format.ts';
import { useLoad } from './use-load.ts';

function shown(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function FileHistory({ fileId, round }: { fileId: number; round: number }) {
  const t = useT(documentsMessages);
  const language = useContext(LanguageContext);
  const [page, setPage] = useState(0);
  const history = useLoad((signal) => historyOf('dms-file', fileId, page, signal), [fileId, page, round]);
  const answer = history.value;

  return (
    <section aria-labelledby="doc-history-heading" className="doc-history">
      <h2 id="doc-history-heading">{t('history')}</h2>
      {history.error ? <p role="alert">{history.error}</p> : null}
      {answer?.empty ? <p>{t('noHistory')}</p> : null}
      {answer && !answer.empty ? (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('when')}</th>
              <th scope="col">{t('who')}</th>
              <th scope="col">{t('event')}</th>
              <th scope="col">{t('changes')}</th>
            </tr>
          </thead>
          <tbody>
            {answer.content.map((event) => (
              <tr key={event.id}>
                <td>{formatInstant(event.occurredAt, language)}</td>
                <td>{event.userCode}</td>
                <td>{event.type}</td>
                <td>
                  <ul className="doc-changes">
                    {Object.entries(event.changes ?? {}).map(([field, change]) => (
                      <li key={field}>
                        {field}: {shown(change.from)} → {shown(change.to)}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {answer && answer.totalPages > 1 ? (
        <nav aria-label={t('history')} className="doc-pager">
          <button type="button" disabled={answer.first} onClick={() => setPage(page - 1)}>
            {t('previous')}
          </button>
          <span>{t('pageOf', { page: answer.page + 1, pages: answer.totalPages, total: answer.totalElements })}</span>
          <button type="button" disabled={answer.last} onClick={() => setPage(page + 1)}>
            {t('next')}
          </button>
        </nav>
      ) : null}
    </section>
  );
}

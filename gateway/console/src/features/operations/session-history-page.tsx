import { useContext, useState } from 'react';
import { api } from '../../shell/api.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { formatInstant, localToIso } from './format.ts';
import { operationsMessages } from './messages.ts';
import type { Page, Session } from './page-types.ts';
import { PageNav } from '../../ui/page-nav.tsx';
import { useLoader } from './use-loader.ts';
import './operations.css';

const SIZE = 20;

interface Filter {
  userCode: string;
  from: string;
  to: string;
}

const EMPTY: Filter = { userCode: '', from: '', to: '' };

/**
 * Ended sessions, newest login first (`GET /api/session/history/list`, the operators' path; a super
 * user's page), filtered by user and by when they logged in.
 */
export function SessionHistoryPage() {
  const t = useT(operationsMessages);
  const language = useContext(LanguageContext);
  const [draft, setDraft] = useState<Filter>(EMPTY);
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const [page, setPage] = useState(0);
  const history = useLoader(
    (signal) => {
      const query = new URLSearchParams({ page: String(page), size: String(SIZE) });
      if (filter.userCode.trim()) query.set('userCode', filter.userCode.trim());
      const from = localToIso(filter.from);
      const to = localToIso(filter.to);
      if (from) query.set('from', from);
      if (to) query.set('to', to);
      return api<Page<Session>>(`/api/session/history/list?${query.toString()}`, { signal });
    },
    [page, filter],
  );
  return (
    <section className="ops-page">
      <h1 tabIndex={-1}>{t('historyTitle')}</h1>
      <form
        className="ops-filters"
        aria-label={t('filters')}
        onSubmit={(event) => {
          event.preventDefault();
          setPage(0);
          setFilter(draft);
        }}
      >
        <label>
          {t('userCode')}
          <input value={draft.userCode} onChange={(event) => setDraft({ ...draft, userCode: event.target.value })} />
        </label>
        <label>
          {t('from')}
          <input type="datetime-local" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
        </label>
        <label>
          {t('to')}
          <input type="datetime-local" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
        </label>
        <button type="submit" className="primary">
          {t('search')}
        </button>
      </form>
      {history.error && <p role="alert">{history.error}</p>}
      <table aria-busy={history.loading}>
        <caption className="visually-hidden">{t('historyTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('user')}</th>
            <th scope="col">{t('account')}</th>
            <th scope="col">{t('tenant')}</th>
            <th scope="col">{t('ipAddress')}</th>
            <th scope="col">{t('loginAt')}</th>
            <th scope="col">{t('lastSeenAt')}</th>
            <th scope="col">{t('logoutAt')}</th>
          </tr>
        </thead>
        <tbody>
          {history.value?.content.map((session) => (
            <tr key={session.sessionId}>
              <th scope="row">{session.userCode}</th>
              <td>{session.accountNo}</td>
              <td>{session.crProcessId}</td>
              <td>{session.ipAddress ?? ''}</td>
              <td>{formatInstant(session.loginAt, language)}</td>
              <td>{formatInstant(session.lastSeenAt, language)}</td>
              <td>{formatInstant(session.logoutAt ?? session.expiresAt, language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {history.value?.content.length === 0 && <p>{t('none')}</p>}
      {history.value && <PageNav page={page} totalPages={history.value.totalPages} totalElements={history.value.totalElements} onPage={setPage} />}
    </section>
  );
}

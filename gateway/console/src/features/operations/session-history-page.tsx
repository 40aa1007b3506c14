import { useContext, useState } from 'react';
import { answer, platform } from '../../shell/api.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { formatInstant, localToIso } from './format.ts';
import { operationsMessages } from './messages.ts';
import { OperatorTable } from './operator-table.tsx';
import { sessionColumns } from './session-columns.ts';
import './operations.css';
import { DateInput } from '../../ui/date-input.tsx';

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
  const history = useLoad(
    (signal) => {
      const query = { page, size: SIZE, userCode: filter.userCode.trim() || undefined, from: localToIso(filter.from), to: localToIso(filter.to) };
      return answer(platform.GET('/api/session/history/list', { params: { query }, signal }));
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
          <DateInput value={draft.from} onChange={(value) => setDraft({ ...draft, from: value })} withTime />
        </label>
        <label>
          {t('to')}
          <DateInput value={draft.to} onChange={(value) => setDraft({ ...draft, to: value })} withTime />
        </label>
        <button type="submit" className="primary">
          {t('search')}
        </button>
      </form>
      <OperatorTable
        caption={t('historyTitle')}
        rows={history}
        rowKey={(session) => session.sessionId}
        onPage={setPage}
        columns={[...sessionColumns(t, language), { header: t('logoutAt'), cell: (session) => formatInstant(session.logoutAt ?? session.expiresAt, language) }]}
      />
    </section>
  );
}

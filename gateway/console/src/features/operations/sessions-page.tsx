import { useContext, useState } from 'react';
import { api, ApiError } from '../../shell/api.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { formatInstant } from './format.ts';
import { operationsMessages } from './messages.ts';
import { Modal } from './modal.tsx';
import type { Page, Session } from './page-types.ts';
import { PageNav } from '../../ui/page-nav.tsx';
import { useLoader } from './use-loader.ts';
import './operations.css';

const SIZE = 20;

interface Filter {
  userCode: string;
  accountNo: string;
  crProcessId: string;
}

const EMPTY: Filter = { userCode: '', accountNo: '', crProcessId: '' };

/** The filter as the active-session list takes it: only the fields filled in. */
function filterBody(filter: Filter): Record<string, string | number> {
  const body: Record<string, string | number> = {};
  if (filter.userCode.trim()) body.userCode = filter.userCode.trim();
  if (filter.accountNo.trim()) body.accountNo = filter.accountNo.trim();
  if (filter.crProcessId.trim()) body.crProcessId = Number(filter.crProcessId);
  return body;
}

/**
 * The open sessions of every tenant (a super user's page: `POST /api/session/active/list`, the
 * operators' path), filtered by user, account or tenant, a page at a time; "End session" asks first,
 * then `PUT /api/session/{id} {active:false}`: that session's next request is refused.
 */
export function SessionsPage() {
  const t = useT(operationsMessages);
  const language = useContext(LanguageContext);
  const [draft, setDraft] = useState<Filter>(EMPTY);
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const [page, setPage] = useState(0);
  const [ending, setEnding] = useState<Session>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string }>();
  const sessions = useLoader(
    (signal) => api<Page<Session>>('/api/session/active/list', { method: 'POST', body: { page, size: SIZE, filter: filterBody(filter) }, signal }),
    [page, filter],
  );

  const end = async (session: Session) => {
    setBusy(true);
    setNotice(undefined);
    try {
      await api(`/api/session/${encodeURIComponent(session.sessionId)}`, { method: 'PUT', body: { active: false } });
      setNotice({ ok: true, text: t('ended', { user: session.userCode }) });
    } catch (failure) {
      setNotice({ ok: false, text: failure instanceof ApiError ? failure.message : String(failure) });
    } finally {
      setBusy(false);
      setEnding(undefined);
      sessions.reload();
    }
  };

  return (
    <section className="ops-page">
      <h1 tabIndex={-1}>{t('sessionsTitle')}</h1>
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
          {t('accountNo')}
          <input value={draft.accountNo} onChange={(event) => setDraft({ ...draft, accountNo: event.target.value })} />
        </label>
        <label>
          {t('crProcessId')}
          <input type="number" min={1} value={draft.crProcessId} onChange={(event) => setDraft({ ...draft, crProcessId: event.target.value })} />
        </label>
        <button type="submit" className="primary">
          {t('search')}
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(EMPTY);
            setFilter(EMPTY);
            setPage(0);
          }}
        >
          {t('clear')}
        </button>
      </form>
      {notice && <p role={notice.ok ? 'status' : 'alert'}>{notice.text}</p>}
      {sessions.error && <p role="alert">{sessions.error}</p>}
      <table aria-busy={sessions.loading}>
        <caption className="visually-hidden">{t('sessionsTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('user')}</th>
            <th scope="col">{t('account')}</th>
            <th scope="col">{t('tenant')}</th>
            <th scope="col">{t('ipAddress')}</th>
            <th scope="col">{t('loginAt')}</th>
            <th scope="col">{t('lastSeenAt')}</th>
            <th scope="col">{t('expiresAt')}</th>
            <th scope="col">{t('actions')}</th>
          </tr>
        </thead>
        <tbody>
          {sessions.value?.content.map((session) => (
            <tr key={session.sessionId}>
              <th scope="row">{session.userCode}</th>
              <td>{session.accountNo}</td>
              <td>{session.crProcessId}</td>
              <td>{session.ipAddress ?? ''}</td>
              <td>{formatInstant(session.loginAt, language)}</td>
              <td>{formatInstant(session.lastSeenAt, language)}</td>
              <td>{formatInstant(session.expiresAt, language)}</td>
              <td>
                <button
                  type="button"
                  className="danger"
                  aria-label={t('endLabel', { user: session.userCode, ip: session.ipAddress ?? '' })}
                  onClick={() => setEnding(session)}
                >
                  {t('end')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {sessions.value?.content.length === 0 && <p>{t('none')}</p>}
      {sessions.value && <PageNav page={page} totalPages={sessions.value.totalPages} totalElements={sessions.value.totalElements} onPage={setPage} />}
      <Modal open={ending !== undefined} title={t('endTitle')} onClose={() => setEnding(undefined)}>
        {ending && <p>{t('endWarning', { user: ending.userCode, at: formatInstant(ending.loginAt, language) })}</p>}
        <p>
          <button type="button" className="danger" disabled={busy} onClick={() => ending && void end(ending)}>
            {busy ? t('loading') : t('confirmEnd')}
          </button>{' '}
          <button type="button" onClick={() => setEnding(undefined)}>
            {t('back')}
          </button>
        </p>
      </Modal>
    </section>
  );
}

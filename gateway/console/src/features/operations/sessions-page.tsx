import { useContext, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Session } from '@platform/client/schema.d.ts';
import { answer, ApiError, platform } from '../../shell/api.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { formatInstant } from './format.ts';
import { operationsMessages } from './messages.ts';
import { Modal } from './modal.tsx';
import { OperatorTable } from './operator-table.tsx';
import { sessionColumns } from './session-columns.ts';
import './operations.css';

const SIZE = 20;

interface Filter {
  userCode: string;
  accountNo: string;
  crProcessId: string;
}

const EMPTY: Filter = { userCode: '', accountNo: '', crProcessId: '' };

/** The filter as the active-session list takes it: only the fields filled in. */
function filterBody(filter: Filter) {
  const body: { userCode?: string; accountNo?: string; crProcessId?: number } = {};
  if (filter.userCode.trim()) body.userCode = filter.userCode.trim();
  if (filter.accountNo.trim()) body.accountNo = filter.accountNo.trim();
  if (filter.crProcessId.trim()) body.crProcessId = Number(filter.crProcessId);
  return body;
}

/**
 * The open sessions of every tenant (a super user's page: `POST /api/session/active/list`, the
 * operators' path), filtered by user (`?userCode=` opens it so filtered), account or tenant, a page at a time; "End session" asks first,
 * then `PUT /api/session/{id} {active:false}`: that session's next request is refused.
 */
export function SessionsPage() {
  const t = useT(operationsMessages);
  const language = useContext(LanguageContext);
  // a user's page links here with its userCode (user-sessions.tsx)
  const [params] = useSearchParams();
  const [draft, setDraft] = useState<Filter>(() => ({ ...EMPTY, userCode: params.get('userCode') ?? '' }));
  const [filter, setFilter] = useState<Filter>(() => ({ ...EMPTY, userCode: params.get('userCode') ?? '' }));
  const [page, setPage] = useState(0);
  const [ending, setEnding] = useState<Session>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string }>();
  const sessions = useLoad(
    (signal) => answer(platform.POST('/api/session/active/list', { body: { page, size: SIZE, filter: filterBody(filter) }, signal })),
    [page, filter],
  );

  const end = async (session: Session) => {
    setBusy(true);
    setNotice(undefined);
    try {
      await answer(platform.PUT('/api/session/{sessionId}', { params: { path: { sessionId: session.sessionId } }, body: { active: false } }));
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
      <OperatorTable
        caption={t('sessionsTitle')}
        rows={sessions}
        rowKey={(session) => session.sessionId}
        onPage={setPage}
        columns={[
          ...sessionColumns(t, language),
          { header: t('expiresAt'), cell: (session) => formatInstant(session.expiresAt, language) },
          {
            header: t('actions'),
            cell: (session) => (
              <button
                type="button"
                className="danger"
                aria-label={t('endLabel', { user: session.userCode, ip: session.ipAddress ?? '' })}
                onClick={() => setEnding(session)}
              >
                {t('end')}
              </button>
            ),
          },
        ]}
      />
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

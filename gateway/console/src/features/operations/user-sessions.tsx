import { useContext, useId, useState } from 'react';
import { Link } from 'react-router';
import type { RecordActionsProps } from '../../extensions/types.ts';
import { answer, platform } from '../../shell/api.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { formatInstant } from './format.ts';
import { operationsMessages } from './messages.ts';
import { OperatorTable } from './operator-table.tsx';
import { sessionColumns } from './session-columns.ts';
import './operations.css';

/** As many sessions as a related list shows rows. */
const SIZE = 5;

/**
 * A user's open sessions on its record page, as a related list: `POST /api/session/active/list`
 * filtered by its userCode, five a page, and a link to the active-sessions page so filtered, where
 * one is ended. The operators' path: the extension shows it to super users only.
 */
export function UserSessions({ record }: RecordActionsProps) {
  const t = useT(operationsMessages);
  const language = useContext(LanguageContext);
  const headingId = useId();
  const userCode = String(record.userCode ?? '');
  const [page, setPage] = useState(0);
  const sessions = useLoad(
    (signal) => answer(platform.POST('/api/session/active/list', { body: { page, size: SIZE, filter: { userCode } }, signal })),
    [page, userCode],
  );
  // the user is the page's own record: its column would say the same on every row
  const columns = sessionColumns(t, language).filter((column) => !column.names);
  return (
    <section className="related-list" aria-labelledby={headingId}>
      <div className="page-head">
        <h2 id={headingId}>{t('userSessions')}</h2>
        <div className="actions">
          <Link to={`/operations/sessions?${new URLSearchParams({ userCode }).toString()}`}>{t('allUserSessions', { user: userCode })}</Link>
        </div>
      </div>
      <OperatorTable
        caption={t('userSessions')}
        rows={sessions}
        rowKey={(session) => session.sessionId}
        onPage={setPage}
        columns={[
          { header: t('loginAt'), cell: (session) => formatInstant(session.loginAt, language), names: true },
          ...columns.filter((column) => column.header !== t('loginAt')),
          { header: t('expiresAt'), cell: (session) => formatInstant(session.expiresAt, language) },
        ]}
      />
    </section>
  );
}

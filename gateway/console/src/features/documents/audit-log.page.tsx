/**
 * The documents' audit log (dms-audit-log, read-only, newest first, filtered by action; each row
 * names its file by the `fileName` the list answers, or its id once the file is purged) and the
 * check of the tenant's hash chain (GET /api/dms-audit-log/verify): intact, or the first broken entry.
 */
import { useContext, useState } from 'react';
import { Link } from 'react-router';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { useResourceDef } from '../../resources/manifest.tsx';
import { useValueLabels } from '../../resources/labels.ts';
import { PageNav } from '../../ui/page-nav.tsx';
import { listAuditLog, verifyAuditChain, type ChainCheck, type DmsAuditLog } from './dms.api.ts';
import { documentsMessages } from './documents.messages.ts';
import { formatInstant } from './format.ts';
import { useTenantId } from './tenant.ts';
import { useLoad } from '../../shell/use-load.ts';
import './documents.css';

/** An audited action (the select offers the manifest's, which come from the same registry as the document's). */
type AuditAction = NonNullable<DmsAuditLog['action']>;

/** A download the console made to show the file on its page (`inline`), not to save it. */
function isPreview(details: string | null | undefined): boolean {
  try {
    return (JSON.parse(details ?? '{}') as { inline?: unknown }).inline === true;
  } catch {
    return false;
  }
}

export function AuditLogPage() {
  const t = useT(documentsMessages);
  const language = useContext(LanguageContext);
  const crProcessId = useTenantId();
  const [page, setPage] = useState(0);
  const [action, setAction] = useState<AuditAction | ''>('');
  const rows = useLoad((signal) => listAuditLog(crProcessId, { page, size: 50, filter: action ? { action } : {} }, signal), [crProcessId, page, action]);
  // the audited actions as the registry declares them (the manifest), so a new one needs no console code
  const actions = useResourceDef('dms-audit-log')?.fields.find((field) => field.name === 'action')?.values ?? [];
  const actionLabel = useValueLabels('dms-audit-log', 'action');
  const [check, setCheck] = useState<ChainCheck>();
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string>();

  const verify = async () => {
    setChecking(true);
    setCheck(undefined);
    try {
      setCheck(await verifyAuditChain(crProcessId));
      setError(undefined);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setChecking(false);
    }
  };
  const answer = rows.value;

  return (
    <div className="doc-page">
      <h1 tabIndex={-1}>{t('auditLog')}</h1>
      <div className="doc-action-row">
        <button type="button" className="primary" disabled={checking} onClick={() => void verify()}>
          {checking ? t('verifying') : t('verifyChain')}
        </button>
        <p role="status" className={check ? (check.intact ? 'doc-chain-ok' : 'doc-chain-broken') : undefined}>
          {check
            ? check.intact
              ? `✓ ${t('chainOk', { checked: check.checked })}`
              : `✗ ${t('chainBroken', { id: check.firstBrokenId ?? '?', checked: check.checked })}`
            : ''}
        </p>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      <div className="doc-search">
        <label htmlFor="doc-audit-action">{t('action')}</label>
        <select
          id="doc-audit-action"
          value={action}
          onChange={(event) => {
            setAction(event.target.value as AuditAction | '');
            setPage(0);
          }}
        >
          <option value="">{t('allActions')}</option>
          {actions.map((name) => (
            <option key={name} value={name}>
              {actionLabel(name)}
            </option>
          ))}
        </select>
      </div>
      {rows.error ? <p role="alert">{rows.error}</p> : null}
      <table aria-busy={rows.loading}>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t('when')}</th>
            <th scope="col">{t('action')}</th>
            <th scope="col">{t('fileRef')}</th>
            <th scope="col">{t('shareLinkRef')}</th>
            <th scope="col">{t('user')}</th>
            <th scope="col">{t('address')}</th>
          </tr>
        </thead>
        <tbody>
          {answer?.content.map((row) => (
            <tr key={row.id}>
              <td>{row.id}</td>
              <td>{formatInstant(row.createdAt, language)}</td>
              <td>{row.action === 'DOWNLOAD' && isPreview(row.details) ? `${actionLabel(row.action)} (${t('preview')})` : actionLabel(row.action)}</td>
              <td>{row.fileId ? <Link to={`/documents/file/${row.fileId}`}>{row.fileName ?? `#${row.fileId}`}</Link> : ''}</td>
              <td>{row.shareLinkId ?? ''}</td>
              <td>{row.userCode}</td>
              <td>{row.ipAddress ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {answer && answer.totalPages > 1 ? (
        <PageNav page={answer.page} totalPages={answer.totalPages} totalElements={answer.totalElements} onPage={setPage} label={t('auditLog')} />
      ) : null}
    </div>
  );
}

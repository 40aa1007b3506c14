/**
 * A retention policy's record action: its dry run (GET /api/dms-retention-policy/{id}/dry-run,
 * dms-retention-policy:read) in a dialog, showing how many files a run would soft-delete or purge
 * now and the first of them, changing nothing.
 */
import { useContext, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { RecordActionsProps } from '../../extensions/types.ts';
import { useAccess } from '../../shell/access.tsx';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { retentionDryRun, type DryRun } from './dms.api.ts';
import { documentsMessages } from './documents.messages.ts';
import { useFieldLabels } from '../../resources/labels.ts';
import { formatInstant } from './format.ts';
import './documents.css';

export function RetentionDryRunAction({ record }: RecordActionsProps) {
  const t = useT(documentsMessages);
  const label = useFieldLabels('dms-file');
  const language = useContext(LanguageContext);
  const access = useAccess();
  const dialog = useRef<HTMLDialogElement>(null);
  const [result, setResult] = useState<DryRun>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (!access.can('dms-retention-policy:read') || typeof record.id !== 'number') return null;
  const policyId = record.id;

  const run = async () => {
    setBusy(true);
    setResult(undefined);
    setError(undefined);
    dialog.current?.showModal();
    try {
      setResult(await retentionDryRun(policyId));
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" onClick={() => void run()} disabled={busy}>
        {t('dryRun')}
      </button>
      <dialog ref={dialog} aria-labelledby={`doc-dry-run-${policyId}`} className="doc-dry-run">
        <h2 id={`doc-dry-run-${policyId}`}>{t('dryRunTitle')}</h2>
        {busy ? <p aria-busy="true">{t('loading')}</p> : null}
        {error ? <p role="alert">{error}</p> : null}
        {result ? (
          <>
            <p role="status">{result.count === 0 ? t('dryRunNone') : t('dryRunCount', { action: result.action, count: result.count })}</p>
            {result.files.length > 0 && result.files.length < result.count ? <p>{t('dryRunListed', { shown: result.files.length })}</p> : null}
            {result.files.length > 0 ? (
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('name')}</th>
                    <th scope="col">{label('uploadDate')}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.files.map((file) => (
                    <tr key={file.fileId}>
                      <td>
                        <Link to={`/documents/file/${file.fileId}`}>{file.originalFileName}</Link>
                      </td>
                      <td>{formatInstant(file.uploadDate, language)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </>
        ) : null}
        <button type="button" onClick={() => dialog.current?.close()}>
          {t('close')}
        </button>
      </dialog>
    </>
  );
}

/**
 * What may be done to a file, as the roles allow: download (dms-file:read, an anchor with a signed
 * attachment URL), move to another category and set or release the legal hold (dms-file:write),
 * delete (dms-file:delete; not offered while the file's state forbids it: libs/contracts/src/
 * record-locks.ts, under legal hold, which the note above the buttons says).
 */
import { useState, type MouseEvent } from 'react';
import { lockOf } from '@platform/contracts/record-locks.ts';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { ConfirmDialog } from './confirm.dialog.tsx';
import { deleteFile, downloadUrl, moveFile, setLegalHold, type DmsFile } from './dms.api.ts';
import { documentsMessages } from './documents.messages.ts';
import { fileLabel } from './format.ts';
import { useLoad } from '../../shell/use-load.ts';

export interface FileActionsProps {
  file: DmsFile;
  /** Every category named with its ancestors, for the move. */
  categories: readonly { id: number; label: string }[];
  onChanged: (file: DmsFile) => void;
  onDeleted: () => void;
}

export function FileActions({ file, categories, onChanged, onDeleted }: FileActionsProps) {
  const t = useT(documentsMessages);
  const access = useAccess();
  const signed = useLoad((signal) => downloadUrl(file.id, false, signal), [file.id]);
  const [target, setTarget] = useState(file.categoryId == null ? '' : String(file.categoryId));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const act = async (action: () => Promise<DmsFile>) => {
    setBusy(true);
    try {
      onChanged(await action());
      setError(undefined);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  // a signed URL lives a short while: one past its expiry is signed again before the download
  const download = async (event: MouseEvent<HTMLAnchorElement>) => {
    const expiresAt = signed.value ? Date.parse(signed.value.expiresAt) : 0;
    if (expiresAt - Date.now() > 5_000) return;
    event.preventDefault();
    try {
      location.assign((await downloadUrl(file.id, false)).url);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  return (
    <section aria-labelledby="doc-actions-heading" className="doc-actions">
      <h2 id="doc-actions-heading" className="visually-hidden">
        {t('actions')}
      </h2>
      {file.legalHold ? <p className="doc-hold-note">{t('legalHoldOn')}</p> : null}
      <div className="doc-action-row">
        {signed.value ? (
          <a className="button primary" href={signed.value.url} download={file.originalFileName ?? ''} onClick={(event) => void download(event)}>
            {t('download')}
          </a>
        ) : null}
        {access.can('dms-file:write') ? (
          <button type="button" disabled={busy} onClick={() => void act(() => setLegalHold(file, !file.legalHold))}>
            {file.legalHold ? t('releaseLegalHold') : t('setLegalHold')}
          </button>
        ) : null}
        {access.can('dms-file:delete') && !lockOf('dms-file', 'delete', file) ? (
          <button type="button" className="danger" onClick={() => setDeleting(true)}>
            {t('delete')}
          </button>
        ) : null}
      </div>
      {access.can('dms-file:write') && categories.length > 0 ? (
        <form
          className="doc-move"
          onSubmit={(event) => {
            event.preventDefault();
            if (target) void act(() => moveFile(file.id, Number(target)));
          }}
        >
          <label htmlFor="doc-move-target">{t('moveTo')}</label>
          <select id="doc-move-target" value={target} onChange={(event) => setTarget(event.target.value)} required>
            <option value="" disabled>
              {t('noCategory')}
            </option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.label}
              </option>
            ))}
          </select>
          <button type="submit" disabled={busy || !target || target === String(file.categoryId ?? '')}>
            {t('move')}
          </button>
        </form>
      ) : null}
      {error || signed.error ? <p role="alert">{error ?? signed.error}</p> : null}
      <ConfirmDialog
        open={deleting}
        title={t('deleteFile')}
        question={t('confirmDeleteFile', { name: fileLabel(file) })}
        onConfirm={async () => {
          await deleteFile(file);
          onDeleted();
        }}
        onClose={() => setDeleting(false)}
      />
    </section>
  );
}

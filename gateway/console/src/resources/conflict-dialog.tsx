import { useT } from '../shell/i18n.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { crudMessages } from './messages.ts';

/**
 * A save refused because the record changed meanwhile (409/412 SVC-SYS-4002): the platform's
 * message, and the choice to reload the current record (the edits kept on top) or to go on as is.
 */
export function ConflictDialog({ error, onReload, onCancel, busy }: { error: unknown; onReload: () => void; onCancel: () => void; busy: boolean }) {
  const t = useT(crudMessages);
  return (
    <Dialog open={error !== null} title={t('conflictTitle')} onClose={onCancel}>
      <ErrorAlert error={error} />
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={onReload}>
          {t('reload')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </Dialog>
  );
}

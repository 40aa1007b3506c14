import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { useT } from '../shell/i18n.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { crudMessages } from './messages.ts';
import { ResourceError } from './resource-error.tsx';

/**
 * A save refused because the record changed meanwhile (409/412 SVC-SYS-4002): what happened, in a
 * clerk's words, and the choice to reload the current record (the edits kept on top) or to go on as is.
 */
export function ConflictDialog({
  resource,
  error,
  onReload,
  onCancel,
  busy,
}: {
  resource: ConsoleResource;
  error: unknown;
  onReload: () => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const t = useT(crudMessages);
  return (
    <Dialog open={error !== null} title={t('conflictTitle')} onClose={onCancel}>
      <ResourceError error={error} resource={resource} />
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

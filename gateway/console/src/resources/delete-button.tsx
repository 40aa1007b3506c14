import { useContext, useState } from 'react';
import { useDelete } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { notify } from '../ui/toasts.tsx';
import { crudMessages } from './messages.ts';
import { singularLabel } from './labels.ts';
import { ResourceError } from './resource-error.tsx';

/**
 * Delete, after a confirmation in a modal dialog whose focus starts on Cancel, so that Enter or a
 * space does not delete (docs/adr/0122-feedback-after-create-save-and-delete.md); a refusal (409
 * SVC-SYS-4003 while other records reference it) is shown there in a clerk's words, a delete said
 * in the message region.
 */
export function DeleteButton({
  resource,
  keyValue,
  name,
  onDeleted,
}: {
  resource: ConsoleResource;
  keyValue: string;
  /** What names the record in the message after the delete. */
  name?: string;
  onDeleted: () => void;
}) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const [open, setOpen] = useState(false);
  const { mutate: remove, mutation } = useDelete();
  const close = () => {
    setOpen(false);
    mutation.reset();
  };
  return (
    <>
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        {t('delete')}
      </button>
      <Dialog open={open} title={t('deleteTitle', { resource: singularLabel(resource, language), key: keyValue })} onClose={close}>
        <p>{t('deleteText')}</p>
        <ResourceError error={mutation.error} resource={resource} />
        <div className="actions">
          <button type="button" onClick={close} data-autofocus>
            {t('cancel')}
          </button>
          <button
            type="button"
            className="danger"
            disabled={mutation.isPending}
            onClick={() =>
              remove(
                { resource: resource.path, id: keyValue },
                {
                  onSuccess: () => {
                    setOpen(false);
                    notify(t('deleted', { resource: singularLabel(resource, language), name: name ?? keyValue }));
                    onDeleted();
                  },
                },
              )
            }
          >
            {t('delete')}
          </button>
        </div>
      </Dialog>
    </>
  );
}

import { useContext, useState } from 'react';
import { useDelete } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { crudMessages } from './messages.ts';
import { singularLabel } from './labels.ts';

/**
 * Delete, after a confirmation in a modal dialog; a refusal (409 SVC-SYS-4003 while other records
 * reference it) is shown there in the platform's words.
 */
export function DeleteButton({ resource, keyValue, onDeleted }: { resource: ConsoleResource; keyValue: string; onDeleted: () => void }) {
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
        <ErrorAlert error={mutation.error} />
        <div className="actions">
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
                    onDeleted();
                  },
                },
              )
            }
          >
            {t('delete')}
          </button>
          <button type="button" onClick={close} autoFocus>
            {t('cancel')}
          </button>
        </div>
      </Dialog>
    </>
  );
}

/**
 * A modal <dialog> asking to confirm a destructive action: the browser traps focus in it and
 * Escape closes it; the platform's refusal (a legal hold's 409) shows inside it.
 */
import { useEffect, useRef, useState } from 'react';
import { useT } from '../../shell/i18n.tsx';
import { documentsMessages } from './documents.messages.ts';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  question: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

export function ConfirmDialog({ open, title, question, onConfirm, onClose }: ConfirmDialogProps) {
  const t = useT(documentsMessages);
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setError(undefined);
      element.showModal();
    } else if (!open && element.open) element.close();
  }, [open]);

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onClose();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={dialog} aria-labelledby="doc-confirm-title" onClose={onClose}>
      <h2 id="doc-confirm-title">{title}</h2>
      <p>{question}</p>
      {error ? <p role="alert">{error}</p> : null}
      <div className="doc-dialog-buttons">
        <button type="button" className="danger" disabled={busy} onClick={() => void confirm()}>
          {t('confirm')}
        </button>
        <button type="button" onClick={onClose}>
          {t('cancel')}
        </button>
      </div>
    </dialog>
  );
}

import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal <dialog>: opened with showModal(), so the page behind is inert and focus stays inside;
 * Escape (the dialog's cancel) and the callers' buttons close it through `onClose`. Focus starts
 * on the control marked `data-autofocus`, else on the first one.
 */
export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      // showModal focuses the first control; a dialog may name a safer one (Cancel of a delete)
      element.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      ) : null}
    </dialog>
  );
}

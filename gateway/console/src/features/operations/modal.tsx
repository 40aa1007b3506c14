import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog> (showModal): the browser keeps focus inside it, Escape
 * closes it and the page behind is inert, so confirmations need no focus-trap library. Used by the
 * operator pages and the record actions (accrual moves, a webhook's secret).
 *
 * @example
 * <Modal open={asking} title="End this session?" onClose={() => setAsking(false)}>…buttons…</Modal>
 */
export function Modal({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={id} onClose={onClose}>
      <h2 id={id}>{title}</h2>
      {open && children}
    </dialog>
  );
}

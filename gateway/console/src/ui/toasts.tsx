import { useSyncExternalStore } from 'react';
import { defineMessages, useT } from '../shell/i18n.tsx';
import './toasts.css';

/** A short message of what just happened (saved, created, deleted), in the words of the page that said it. */
export interface Toast {
  id: number;
  text: string;
}

/** How long a message stays: long enough to be read after the page it was said on has changed. */
const SHOWN_MS = 8000;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function dismiss(id: number): void {
  publish(toasts.filter((toast) => toast.id !== id));
}

/**
 * Says `text` in the console's message region, which outlives page changes (a create's message is
 * read on the new record's page); it goes after a few seconds or when dismissed.
 *
 * @example
 * notify(t('created', { resource: 'Branch' }));
 */
export function notify(text: string): void {
  const id = nextId++;
  publish([...toasts.slice(-2), { id, text }]);
  setTimeout(() => dismiss(id), SHOWN_MS);
}

const messages = defineMessages({ en: { dismiss: 'Dismiss' }, tr: { dismiss: 'Kapat' } });

/**
 * The message region of the layout: a polite live region (`role="status"`) present from the start,
 * so a screen reader says each message as it is added.
 */
export function Toasts() {
  const t = useT(messages);
  const shown = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
  );
  return (
    <div className="toasts" role="status" aria-live="polite">
      {shown.map((toast) => (
        <p key={toast.id} className="toast">
          <span>{toast.text}</span>
          <button type="button" className="toast-dismiss" aria-label={t('dismiss')} onClick={() => dismiss(toast.id)}>
            ×
          </button>
        </p>
      ))}
    </div>
  );
}

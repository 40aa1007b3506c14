/**
 * The global search's keyboard shortcut: Ctrl+K (Cmd+K on a Mac) anywhere, and "/" where the user
 * is not typing into a field, call `open` instead of what the browser would do.
 */
import { useEffect, useRef } from 'react';

/** The shortcut as aria-keyshortcuts names it. */
export const SEARCH_SHORTCUTS = 'Control+K Meta+K /';

function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

export function useSearchShortcut(open: () => void): void {
  const latest = useRef(open);
  latest.current = open;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const commandK = (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !typingInto(event.target);
      if (!commandK && !slash) return;
      event.preventDefault();
      latest.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useT } from '../shell/i18n.tsx';
import { shellMessages } from './messages.ts';

/**
 * The menu as a disclosure on a narrow screen: a button in the banner (aria-expanded,
 * aria-controls) and the panel around the menu it shows. Choosing an entry (any change of address)
 * and Escape close it; Escape gives the focus back to the button. On a wide screen app.css hides
 * the button and always shows the panel, so the state only matters on a phone.
 */
export function useMenuDisclosure(): { button: ReactNode; panel: (menu: ReactNode) => ReactNode } {
  const t = useT(shellMessages);
  const id = useId();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { key } = useLocation();
  useEffect(() => setOpen(false), [key]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return {
    button: (
      <button ref={buttonRef} type="button" className="menu-button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {t('menu')}
      </button>
    ),
    panel: (menu) => (
      <div id={id} className={open ? 'app-menu open' : 'app-menu'}>
        {menu}
      </div>
    ),
  };
}

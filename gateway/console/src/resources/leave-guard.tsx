import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { useT } from '../shell/i18n.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { crudMessages } from './messages.ts';

/**
 * Keeps a form with unsaved changes from being left unawares: a move to another page of the console
 * (a link, the menu, Back) waits on a dialog whose default is to stay, and closing or reloading the
 * tab asks the browser's own question (beforeunload). A successful save calls `release` before it
 * moves on, so no question follows it; a session that ended goes to the login page unasked.
 *
 * @example
 * const guard = useLeaveGuard(changed);
 * onSuccess: () => { guard.release(); navigate(next); }
 * return <>{form}{guard.dialog}</>;
 */
export function useLeaveGuard(dirty: boolean): { dialog: ReactNode; release: () => void } {
  const t = useT(crudMessages);
  const released = useRef(false);
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !released.current &&
      nextLocation.pathname !== '/login' &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [dirty],
  );
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (released.current) return;
      event.preventDefault();
      // older browsers show the question only when returnValue is set
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  const dialog = (
    <Dialog open={blocker.state === 'blocked'} title={t('leaveTitle')} onClose={() => blocker.reset?.()}>
      <p>{t('leaveText')}</p>
      <div className="actions">
        <button type="button" data-autofocus onClick={() => blocker.reset?.()}>
          {t('stay')}
        </button>
        <button type="button" className="danger" onClick={() => blocker.proceed?.()}>
          {t('leave')}
        </button>
      </div>
    </Dialog>
  );
  return {
    dialog,
    release: () => {
      released.current = true;
    },
  };
}

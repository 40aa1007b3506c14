import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { onForbidden, onSessionEnded } from '../shell/api.ts';
import { AccessContext, accessOf } from '../shell/access.tsx';
import { useT } from '../shell/i18n.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { shellMessages } from './messages.ts';
import { ME_KEY, meQuery } from './session.ts';

/**
 * Gives the logged-in pages the user's Access (GET /api/auth/me, its roles in the current tenant),
 * and sends the user to the login page, keeping the page to come back to, when any call answers
 * that the session is over (401 SVC-SYS-1001). The roles are read again, in the background, at
 * every page change and after any refusal of a role (403 SVC-SYS-1003): the services read them
 * live (docs/adr/0015-what-a-user-may-do-is-read-live.md), and the console offers what they allow now.
 */
export function SessionShell({ children }: { children: ReactNode }) {
  const t = useT(shellMessages);
  const me = useQuery(meQuery);
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const here = `${location.pathname}${location.search}`;
  useEffect(
    () =>
      onSessionEnded(() => {
        queryClient.clear();
        void navigate(`/login?ended=1&to=${encodeURIComponent(here)}`, { replace: true });
      }),
    [navigate, queryClient, here],
  );
  useEffect(() => onForbidden(() => void queryClient.invalidateQueries({ queryKey: ME_KEY })), [queryClient]);
  // not on the first page: the console read the user as it opened
  const opened = useRef(location.pathname);
  useEffect(() => {
    if (opened.current === location.pathname) return;
    opened.current = '';
    void queryClient.invalidateQueries({ queryKey: ME_KEY });
  }, [location.pathname, queryClient]);
  if (me.data) return <AccessContext.Provider value={accessOf(me.data)}>{children}</AccessContext.Provider>;
  if (me.error) return <ErrorAlert error={me.error} />;
  return <p>{t('loading')}</p>;
}

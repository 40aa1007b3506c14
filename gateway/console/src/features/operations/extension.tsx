import { lazy, Suspense, type ReactNode } from 'react';
import type { ConsoleExtension, RecordActionsProps } from '../../extensions/types.ts';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { operationsMessages } from './messages.ts';

// loaded when opened (the shell wraps extension pages in Suspense): operators' pages are rarely used
const SessionsPage = lazy(() => import('./sessions-page.tsx').then((module) => ({ default: module.SessionsPage })));
const SessionHistoryPage = lazy(() => import('./session-history-page.tsx').then((module) => ({ default: module.SessionHistoryPage })));
const UserSessions = lazy(() => import('./user-sessions.tsx').then((module) => ({ default: module.UserSessions })));
const ExceptionsPage = lazy(() => import('./exceptions-page.tsx').then((module) => ({ default: module.ExceptionsPage })));

/** A page of super users: anyone else who opens its address is told so (the gateway refuses their calls anyway). */
function SuperUsersOnly({ children }: { children: ReactNode }) {
  const t = useT(operationsMessages);
  return useAccess().me.superUser ? children : <p role="alert">{t('superUsersOnly')}</p>;
}

/** A user's open sessions on its page, for a super user: the operators' path the others may not call. */
function UserSessionsSection(props: RecordActionsProps) {
  if (!useAccess().me.superUser) return null;
  return (
    <Suspense fallback={null}>
      <UserSessions {...props} />
    </Suspense>
  );
}

const superUsers = { area: 'operations', visible: (access: { me: { superUser: boolean } }) => access.me.superUser } as const;

/**
 * The operators' pages (sessions and the exception log), for super users only: these are the API
 * key's paths, which the gateway lets a super user's console call (docs/interface.md#sessions-and-logs).
 * A user's page lists its open sessions too, for a super user.
 */
export const operationsExtension: ConsoleExtension = {
  pages: [
    {
      path: 'operations/sessions',
      element: (
        <SuperUsersOnly>
          <SessionsPage />
        </SuperUsersOnly>
      ),
      menu: { ...superUsers, label: { en: operationsMessages.en.sessionsMenu, tr: operationsMessages.tr.sessionsMenu } },
    },
    {
      path: 'operations/session-history',
      element: (
        <SuperUsersOnly>
          <SessionHistoryPage />
        </SuperUsersOnly>
      ),
      menu: { ...superUsers, label: { en: operationsMessages.en.historyMenu, tr: operationsMessages.tr.historyMenu } },
    },
    {
      path: 'operations/exceptions',
      element: (
        <SuperUsersOnly>
          <ExceptionsPage />
        </SuperUsersOnly>
      ),
      menu: { ...superUsers, label: { en: operationsMessages.en.exceptionsMenu, tr: operationsMessages.tr.exceptionsMenu } },
    },
  ],
  resources: { 'user-info': { recordSections: UserSessionsSection } },
};

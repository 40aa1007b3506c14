import type { ConsoleExtension } from '../../extensions/types.ts';
import { DashboardPage } from './dashboard-page.tsx';
import { dashboardMessages } from './messages.ts';

/** The dashboard at /console/dashboard (the shell may show it as its start page), in the Overview group. */
export const dashboardExtension: ConsoleExtension = {
  pages: [{ path: 'dashboard', element: <DashboardPage />, menu: { label: (language) => dashboardMessages[language].menu, group: 'overview' } }],
};

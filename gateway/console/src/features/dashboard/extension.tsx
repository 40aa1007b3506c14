import { lazy } from 'react';
import type { ConsoleExtension } from '../../extensions/types.ts';
import { dashboardMessages } from './messages.ts';

// loaded when opened: the charts stay out of the first route's JavaScript
const DashboardPage = lazy(() => import('./dashboard-page.tsx').then((module) => ({ default: module.DashboardPage })));

/** The dashboard at /console/dashboard (the shell may show it as its start page), in the Overview group. */
export const dashboardExtension: ConsoleExtension = {
  pages: [
    {
      path: 'dashboard',
      element: <DashboardPage />,
      menu: { label: { en: dashboardMessages.en.menu, tr: dashboardMessages.tr.menu }, area: 'overview' },
      home: true,
    },
  ],
};

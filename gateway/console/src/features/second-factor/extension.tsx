import { lazy } from 'react';
import type { ConsoleExtension } from '../../extensions/types.ts';
import { ResetSecondFactor } from './reset-second-factor.tsx';
import './second-factor.css';

const SecurityPage = lazy(() => import('./security-page.tsx'));

/**
 * The second factor (docs/adr/0127-a-second-factor-for-password-logins.md): the user's own security
 * page (the header links to it), and a user administrator's reset on a user's page. The login's
 * second step is the login page's (app/login-second-step.tsx).
 */
export const secondFactorExtension: ConsoleExtension = {
  pages: [{ path: 'security', element: <SecurityPage /> }],
  resources: { 'user-info': { recordActions: ResetSecondFactor } },
};

import { lazy } from 'react';
import type { ConsoleExtension } from '../../extensions/types.ts';
import { accessTokenMessages } from './messages.ts';

const AccessTokensPage = lazy(() => import('./access-tokens-page.tsx').then((module) => ({ default: module.AccessTokensPage })));
const TenantTokensPage = lazy(() => import('./tenant-tokens-page.tsx').then((module) => ({ default: module.TenantTokensPage })));

/**
 * Personal access tokens (docs/interface.md#personal-access-tokens): one's own, for every user, and
 * the tenant's, for who manages its users.
 */
export const accessTokensExtension: ConsoleExtension = {
  pages: [
    {
      path: 'access-tokens',
      element: <AccessTokensPage />,
      menu: { label: { en: accessTokenMessages.en.menu, tr: accessTokenMessages.tr.menu }, area: 'administration' },
    },
    {
      path: 'access-tokens/tenant',
      element: <TenantTokensPage />,
      menu: {
        label: { en: accessTokenMessages.en.tenantMenu, tr: accessTokenMessages.tr.tenantMenu },
        area: 'administration',
        visible: (access) => access.can('user-info:write'),
      },
    },
  ],
};

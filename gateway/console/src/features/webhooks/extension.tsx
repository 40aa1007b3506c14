import { lazy } from 'react';
import type { ConsoleExtension } from '../../extensions/types.ts';
import { Redeliver } from './redeliver.tsx';
import { RotateSecret } from './rotate-secret.tsx';
import { webhookMessages } from './messages.ts';

const NewSubscriptionPage = lazy(() => import('./new-subscription-page.tsx').then((module) => ({ default: module.NewSubscriptionPage })));

/**
 * Webhooks beyond their CRUD: a subscription's secret rotated and shown once, a delivery redelivered,
 * and a create page that shows the new subscription's secret once.
 */
export const webhooksExtension: ConsoleExtension = {
  pages: [
    {
      path: 'webhooks/new',
      element: <NewSubscriptionPage />,
      menu: { label: (language) => webhookMessages[language].menu, group: 'core', visible: (access) => access.can('webhook-subscription:write') },
    },
  ],
  resources: {
    'webhook-subscription': { recordActions: RotateSecret },
    'webhook-delivery': { recordActions: Redeliver },
  },
};

import { lazy } from 'react';
import type { ConsoleExtension } from '../../extensions/types.ts';
import { Redeliver } from './redeliver.tsx';
import { RotateSecret } from './rotate-secret.tsx';

const NewSubscriptionPage = lazy(() => import('./new-subscription-page.tsx').then((module) => ({ default: module.NewSubscriptionPage })));

/**
 * Webhooks beyond their CRUD: a subscription's secret rotated and shown once, a delivery redelivered,
 * and a create page in the generic one's place (the list's create button) that shows the new
 * subscription's secret once.
 */
export const webhooksExtension: ConsoleExtension = {
  pages: [
    {
      path: 'webhook-subscription/new',
      element: <NewSubscriptionPage />,
    },
  ],
  resources: {
    'webhook-subscription': { recordActions: RotateSecret },
    'webhook-delivery': { recordActions: Redeliver },
  },
};

import { webhookDelivery } from '@platform/contracts/core/webhook-delivery.ts';
import { webhookSubscription } from '@platform/contracts/core/webhook-subscription.ts';
import { WEBHOOK_OPERATIONS } from '@platform/contracts/core/webhooks.ts';
import type { Backends } from '../backends.ts';
import { idParam } from '../http/params.ts';
import { recordToJson } from '../http/record-json.ts';
import { userMetadata } from './crud.ts';
import { callRpc } from './call-rpc.ts';
import { routerFor, type RouteGroup } from './route.ts';

/** The webhook routes beyond the CRUD sets, as declared (libs/contracts/src/core/webhooks.ts). */
export const WEBHOOK_ROUTES = WEBHOOK_OPERATIONS;

/** POST /api/webhook-subscription/{id}/rotate-secret and POST /api/webhook-delivery/{id}/redeliver (docs/interface.md#webhooks). */
export function webhookRoutes(backends: Backends): RouteGroup {
  const { rotateWebhookSecret, redeliverWebhook } = WEBHOOK_OPERATIONS;
  return routerFor(WEBHOOK_ROUTES, {
    rotateWebhookSecret: async (req, res) => {
      const record = await callRpc(backends, rotateWebhookSecret.rpc, { id: idParam(req.params.id) }, userMetadata(req, res));
      res.json(recordToJson(webhookSubscription, record));
    },
    redeliverWebhook: async (req, res) => {
      const record = await callRpc(backends, redeliverWebhook.rpc, { id: idParam(req.params.id) }, userMetadata(req, res));
      res.json(recordToJson(webhookDelivery, record));
    },
  });
}

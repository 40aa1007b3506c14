import { WebhookDeliveryServiceService } from '@platform/kit/gen/platform/core/v1/webhook_delivery.ts';
import { WebhookSubscriptionServiceService } from '@platform/kit/gen/platform/core/v1/webhook_subscription.ts';
import { rpcOperation, type OperationTable } from '../operation.ts';
import { webhookDelivery } from './webhook-delivery.ts';
import { webhookSubscription } from './webhook-subscription.ts';

const ID = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/** The webhook operations beyond the CRUD sets (docs/interface.md#webhooks): a new signing secret, and a manual redelivery. */
export const WEBHOOK_OPERATIONS = {
  rotateWebhookSecret: rpcOperation({
    method: 'post',
    path: '/api/webhook-subscription/:id/rotate-secret',
    rpc: { service: 'core', method: WebhookSubscriptionServiceService.rotateWebhookSubscriptionSecret, retry: 'write' },
    doc: (sources) => ({
      tag: webhookSubscription.path,
      summary: "Replace a webhook subscription's signing secret",
      description: `${sources.rpc ?? ''} Needs webhook-subscription:write; raises the version.`.trim(),
      pathParams: { id: { ...ID, description: "The subscription's id." } },
      ok: { status: 200, schema: sources.record(webhookSubscription), description: 'The subscription with its new `secret`.' },
    }),
  }),
  redeliverWebhook: rpcOperation({
    method: 'post',
    path: '/api/webhook-delivery/:id/redeliver',
    rpc: { service: 'core', method: WebhookDeliveryServiceService.redeliverWebhookDelivery, retry: 'write' },
    doc: (sources) => ({
      tag: webhookDelivery.path,
      summary: 'Deliver a webhook event again',
      description: `${sources.rpc ?? ''} Needs webhook-delivery:write; the attempt carries the same webhook-id.`.trim(),
      pathParams: { id: { ...ID, description: "The delivery's id." } },
      ok: { status: 200, schema: sources.record(webhookDelivery), description: 'The delivery, PENDING and due now.' },
    }),
  }),
} as const satisfies OperationTable;

import { defineResource } from '@platform/kit/resource/resource.ts';
import { WebhookDeliveryServiceService, WebhookDelivery } from '@platform/kit/gen/platform/core/v1/webhook_delivery.ts';

/**
 * One event on its way to one subscription (docs/interface.md#webhooks), read-only: made by the
 * dispatcher's fan-out (core-svc/src/webhooks), its attempts recorded by the dispatcher. The event's
 * UUID is the webhook-id of every attempt. Deleting the subscription deletes its deliveries.
 */
export const webhookDelivery = defineResource<WebhookDelivery>()({
  path: 'webhook-delivery',
  name: 'WebhookDelivery',
  plural: 'WebhookDeliveries',
  service: 'core',
  grpc: WebhookDeliveryServiceService,
  encoder: WebhookDelivery,
  operations: 'read-only',
  fields: {
    subscriptionId: { kind: 'long', required: true, references: 'webhook-subscription' },
    eventId: {
      kind: 'string',
      required: true,
      maxLength: 36,
      notReference: "the event's UUID in its service's outbox, a table of another schema, not a record",
    },
    eventType: { kind: 'string', required: true, maxLength: 100 },
    entity: { kind: 'string', required: true, maxLength: 64 },
    entityKey: { kind: 'string', required: true, maxLength: 255 },
    deliveryStatus: { kind: 'enum', required: true, values: ['PENDING', 'DELIVERED', 'FAILED'], default: 'PENDING' },
    attempts: { kind: 'int', required: true, default: 0 },
    lastAttemptAt: { kind: 'datetime' },
    nextAttemptAt: { kind: 'datetime' },
    lastStatusCode: { kind: 'int' },
    lastLatencyMs: { kind: 'int' },
    lastError: { kind: 'string', maxLength: 1000 },
    responseExcerpt: { kind: 'text' },
    deliveredAt: { kind: 'datetime' },
  },
  uniques: [['subscriptionId', 'eventId']],
  workIndexes: [
    // the dispatcher's claim: the tenants with deliveries waiting, and each one's due deliveries in time order
    {
      name: 'webhook_delivery_tenant_due_index',
      expression: `create index "webhook_delivery_tenant_due_index" on "core"."webhook_delivery" ("cr_process_id", "next_attempt_at", "source_seq") where "delivery_status" = 'PENDING'`,
    },
    // per-record order: an earlier unfinished delivery of the same subscription and record holds the later ones back
    {
      name: 'webhook_delivery_record_index',
      expression: `create index "webhook_delivery_record_index" on "core"."webhook_delivery" ("subscription_id", "entity", "entity_key", "source_seq") where "delivery_status" = 'PENDING'`,
    },
  ],
  columns: {
    /** The outbox the event came from (core, bpm, dms) and its seq there: the event's order within its service. */
    sourceSchema: { kind: 'string', required: true, maxLength: 8 },
    sourceSeq: { kind: 'long', required: true },
    /** Until when a dispatcher holds the delivery (a claimed attempt in flight); past it, another may take it. */
    leasedUntil: { kind: 'datetime' },
  },
});

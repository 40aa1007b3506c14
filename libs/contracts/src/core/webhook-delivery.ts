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
  menu: { area: 'operations' },
  grpc: WebhookDeliveryServiceService,
  encoder: WebhookDelivery,
  operations: 'read-only',
  fields: {
    subscriptionId: { kind: 'long', required: true, references: 'webhook-subscription', doc: 'The subscription it goes to.' },
    eventId: {
      kind: 'string',
      doc: "The event's UUID: the webhook-id header of every attempt.",
      required: true,
      maxLength: 36,
      notReference: "the event's UUID in its service's outbox, a table of another schema, not a record",
    },
    eventType: { kind: 'string', required: true, maxLength: 100, doc: "The event's type (`branch.updated`)." },
    entity: { kind: 'string', required: true, maxLength: 64, doc: 'The resource path of the record.' },
    entityKey: { kind: 'string', required: true, maxLength: 255, doc: "The record's key, as text." },
    deliveryStatus: { kind: 'enum', required: true, values: ['PENDING', 'DELIVERED', 'FAILED'], default: 'PENDING', doc: 'PENDING, DELIVERED or FAILED.' },
    attempts: { kind: 'int', required: true, default: 0, doc: 'Attempts made.' },
    lastAttemptAt: { kind: 'datetime', doc: 'ISO 8601 UTC of the last attempt.' },
    nextAttemptAt: { kind: 'datetime', doc: 'ISO 8601 UTC of the next attempt, while PENDING.' },
    lastStatusCode: { kind: 'int', doc: 'HTTP status of the last attempt (absent when none came).' },
    lastLatencyMs: { kind: 'int', doc: 'Milliseconds the last attempt took.' },
    lastError: { kind: 'string', maxLength: 1000, doc: 'Why the last attempt failed.' },
    responseExcerpt: { kind: 'text', doc: "At most 1 KiB of the last answer's body, as text." },
    deliveredAt: { kind: 'datetime', doc: 'ISO 8601 UTC of the successful attempt.' },
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
  labels: {
    en: {
      one: 'Webhook delivery',
      other: 'Webhook deliveries',
      fields: {
        subscriptionId: 'Webhook',
        eventId: 'Event ID',
        eventType: 'Event type',
        entity: 'Record type',
        entityKey: 'Record key',
        deliveryStatus: 'Delivery status',
        attempts: 'Attempts',
        lastAttemptAt: 'Last attempt',
        nextAttemptAt: 'Next attempt',
        lastStatusCode: 'Last HTTP status',
        lastLatencyMs: 'Last response time (ms)',
        lastError: 'Last error',
        responseExcerpt: 'Response excerpt',
        deliveredAt: 'Delivered',
      },
      values: { deliveryStatus: { PENDING: 'Pending', DELIVERED: 'Delivered', FAILED: 'Failed' } },
    },
    tr: {
      one: 'Web kancası teslimatı',
      other: 'Web kancası teslimatları',
      fields: {
        subscriptionId: 'Web kancası',
        eventId: 'Olay kimliği',
        eventType: 'Olay türü',
        entity: 'Kayıt türü',
        entityKey: 'Kayıt anahtarı',
        deliveryStatus: 'Teslimat durumu',
        attempts: 'Deneme sayısı',
        lastAttemptAt: 'Son deneme',
        nextAttemptAt: 'Sonraki deneme',
        lastStatusCode: 'Son HTTP durumu',
        lastLatencyMs: 'Son yanıt süresi (ms)',
        lastError: 'Son hata',
        responseExcerpt: 'Yanıt özeti',
        deliveredAt: 'Teslim edilme',
      },
      values: { deliveryStatus: { PENDING: 'Bekliyor', DELIVERED: 'Teslim edildi', FAILED: 'Başarısız' } },
    },
  },
  list: {
    columns: ['eventType', 'entity', 'entityKey', 'deliveryStatus', 'attempts', 'lastAttemptAt'],
    filters: ['subscriptionId', 'eventType', 'deliveryStatus', 'entity'],
  },
});

import { defineResource } from '@platform/kit/resource/resource.ts';
import { WebhookSubscriptionServiceService, WebhookSubscription } from '@platform/kit/gen/platform/core/v1/webhook_subscription.ts';

/**
 * An endpoint of a tenant that receives the tenant's events its eventTypes name, signed per the
 * Standard Webhooks specification (docs/interface.md#webhooks). The signing secret is generated on
 * create and answered on create and rotate only; it lives in its own column and never enters an event.
 */
export const webhookSubscription = defineResource<WebhookSubscription>()({
  path: 'webhook-subscription',
  name: 'WebhookSubscription',
  plural: 'WebhookSubscriptions',
  service: 'core',
  grpc: WebhookSubscriptionServiceService,
  encoder: WebhookSubscription,
  operations: 'full',
  fields: {
    url: { kind: 'string', required: true, maxLength: 2000, searchable: true },
    // kept by the hooks in the eventTypeList column (core-svc/src/resources/webhook-subscription)
    eventTypes: { kind: 'strings', required: true, maxItems: 50, maxLength: 100 },
    description: { kind: 'string', maxLength: 1000, searchable: true },
    disabledAt: { kind: 'datetime', readOnly: true },
    disabledReason: { kind: 'string', maxLength: 1000, readOnly: true },
    secret: { kind: 'string', readOnly: true, computed: true, secret: true },
    // the user whose live read roles decide what is delivered (core-svc/src/webhooks/subscriber-access.ts)
    owner: { kind: 'string', readOnly: true, maxLength: 64 },
  },
  columns: {
    /** The eventTypes as a JSON array of strings. */
    eventTypeList: { kind: 'text', required: true },
    /** The signing secret (`whsec_…`). */
    signingSecret: { kind: 'string', required: true, maxLength: 100 },
    /** Since when the endpoint has failed with no success since (WEBHOOK_DISABLE_AFTER_MS counts from it); null while it answers. */
    failingSince: { kind: 'datetime' },
  },
});

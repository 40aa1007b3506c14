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
  menu: { area: 'operations', label: { en: 'Webhooks', tr: 'Web kancaları' } },
  grpc: WebhookSubscriptionServiceService,
  encoder: WebhookSubscription,
  operations: 'full',
  fields: {
    url: {
      kind: 'string',
      required: true,
      maxLength: 2000,
      searchable: true,
      doc: 'The endpoint: an absolute http(s) URL without credentials, at most 2000 characters.',
    },
    // kept by the hooks in the eventTypeList column (core-svc/src/resources/webhook-subscription)
    eventTypes: {
      kind: 'strings',
      required: true,
      maxItems: 50,
      maxLength: 100,
      doc: 'Event type patterns: `<entity>.<what>`, `<entity>.*`, or `*` alone for every event.',
    },
    description: { kind: 'string', maxLength: 1000, searchable: true, doc: 'Free text.' },
    disabledAt: {
      kind: 'datetime',
      readOnly: true,
      doc: 'Set when the endpoint kept failing and the subscription was disabled; cleared by setting status true again.',
    },
    disabledReason: { kind: 'string', maxLength: 1000, readOnly: true, doc: 'Why the subscription was disabled.' },
    secret: {
      kind: 'string',
      readOnly: true,
      computed: true,
      secret: true,
      doc: 'The signing secret, `whsec_` + base64 of 24 random bytes: answered on create and rotate only.',
    },
    // the user whose live read roles decide what is delivered (core-svc/src/webhooks/subscriber-access.ts)
    owner: {
      kind: 'string',
      readOnly: true,
      maxLength: 64,
      doc: 'userCode of the user whose read roles decide what the endpoint receives: the creator, or the last user to update it; read-only.',
    },
  },
  columns: {
    /** The eventTypes as a JSON array of strings. */
    eventTypeList: { kind: 'text', required: true },
    /** The signing secret (`whsec_…`). */
    signingSecret: { kind: 'string', required: true, maxLength: 100 },
    /** Since when the endpoint has failed with no success since (WEBHOOK_DISABLE_AFTER_MS counts from it); null while it answers. */
    failingSince: { kind: 'datetime' },
  },
  list: {
    columns: ['url', 'description', 'disabledAt', 'status'],
    filters: ['url', 'status'],
  },
});

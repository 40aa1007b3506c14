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
  menu: { area: 'operations' },
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
  form: {
    sections: [
      { title: { en: 'Subscription', tr: 'Abonelik' }, fields: ['url', 'description', 'owner', 'status'] },
      { title: { en: 'Events', tr: 'Olaylar' }, fields: ['eventTypes'] },
      { title: { en: 'Delivery state', tr: 'Teslim durumu' }, fields: ['disabledAt', 'disabledReason'] },
    ],
  },
  labels: {
    en: {
      one: 'Webhook',
      other: 'Webhooks',
      fields: {
        url: 'Endpoint URL',
        eventTypes: 'Event types',
        description: 'Description',
        disabledAt: 'Disabled',
        disabledReason: 'Why disabled',
        secret: 'Signing secret',
        owner: 'Owner',
      },
      help: {
        url: 'An http(s) address without a user name or password.',
        eventTypes: 'Such as branch.updated, branch.* for every branch event, or * alone for all.',
        disabledAt: 'Set when the endpoint kept failing; set the status active again to resume.',
        secret: 'Shown only when created or rotated: keep it then.',
        owner: 'Whose read roles decide what the endpoint receives.',
      },
    },
    tr: {
      one: 'Web kancası',
      other: 'Web kancaları',
      fields: {
        url: 'Uç nokta adresi',
        eventTypes: 'Olay türleri',
        description: 'Açıklama',
        disabledAt: 'Devre dışı bırakılma',
        disabledReason: 'Devre dışı bırakılma nedeni',
        secret: 'İmza anahtarı',
        owner: 'Sahip',
      },
      help: {
        url: 'Kullanıcı adı ya da parola içermeyen bir http(s) adresi.',
        eventTypes: 'Örneğin branch.updated, tüm şube olayları için branch.* ya da hepsi için yalnızca *.',
        disabledAt: 'Uç nokta sürekli hata verince dolar; sürdürmek için durumu yeniden Aktif yapın.',
        secret: 'Yalnızca oluşturulurken ya da yenilenirken gösterilir: o anda saklayın.',
        owner: 'Uç noktaya ne gideceğini okuma rolleri belirleyen kullanıcı.',
      },
    },
  },
  list: {
    columns: ['url', 'description', 'disabledAt', 'status'],
    filters: ['url', 'status'],
  },
});

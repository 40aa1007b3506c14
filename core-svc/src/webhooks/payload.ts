import type { ClaimedDelivery } from './delivery-queue.ts';

/**
 * The JSON a delivery posts (docs/interface.md#webhooks): `{type, timestamp, data}`, `data` holding
 * the tenant, the record's path, its key (`id` a number when the key is one, `key` always as text),
 * its version and the changed fields.
 */
export function deliveryBody(delivery: ClaimedDelivery): string {
  const numeric = /^\d{1,15}$/.test(delivery.entityKey);
  return JSON.stringify({
    type: delivery.type,
    timestamp: delivery.occurredAt.toISOString(),
    data: {
      crProcessId: delivery.crProcessId,
      entity: delivery.entity,
      id: numeric ? Number(delivery.entityKey) : delivery.entityKey,
      key: delivery.entityKey,
      version: delivery.version,
      changes: delivery.changes,
    },
  });
}

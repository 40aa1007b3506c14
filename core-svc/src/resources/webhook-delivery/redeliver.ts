import { actorOf } from '@platform/libs/auth/caller.ts';
import { roleOf, toMessages } from '@platform/libs/crud/handlers.ts';
import { findVisible } from '@platform/libs/crud/key-read.ts';
import type { ResourceRuntime } from '@platform/libs/crud/runtime.ts';
import { requiring } from '@platform/libs/grpc/requiring.ts';
import type { Handler } from '@platform/libs/grpc/server.ts';
import type { RedeliverWebhookDeliveryRequest } from '@platform/libs/gen/platform/core/v1/webhook_delivery.ts';

/**
 * POST /api/webhook-delivery/{id}/redeliver (webhook-delivery:write): the delivery PENDING again and
 * due now, with the same webhook-id; the dispatchers are woken as the change commits. A delivery in
 * flight keeps its lease, so it is not sent twice at once.
 */
export function redeliver(rt: ResourceRuntime): Handler<never, unknown> {
  return requiring(roleOf(rt.resource, 'write'), async (request: RedeliverWebhookDeliveryRequest, ctx) => {
    const row = await ctx.em.transactional(async (em) => {
      const current = await findVisible(rt, em, { ...ctx, em }, request.id, true);
      Object.assign(current, {
        deliveryStatus: 'PENDING',
        nextAttemptAt: new Date(),
        version: Number(current.version) + 1,
        updatedAt: new Date(),
        updatedBy: actorOf(ctx),
      });
      await em.flush();
      return current;
    });
    const [message] = await toMessages(rt, [row], ctx);
    return message ?? {};
  });
}

import { actorOf } from '@platform/service-kit/auth/caller.ts';
import { roleOf, toMessages } from '@platform/service-kit/crud/handlers.ts';
import { findVisible } from '@platform/service-kit/crud/key-read.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import type { Handler } from '@platform/service-kit/grpc/server.ts';
import type { RedeliverWebhookDeliveryRequest } from '@platform/kit/gen/platform/core/v1/webhook_delivery.ts';

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

import { actorOf } from '@platform/service-kit/auth/caller.ts';
import { roleOf, toMessages } from '@platform/service-kit/crud/handlers.ts';
import { findVisible } from '@platform/service-kit/crud/key-read.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { recordEvent } from '@platform/service-kit/events/outbox.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import type { Handler } from '@platform/service-kit/grpc/server.ts';
import type { RotateWebhookSubscriptionSecretRequest } from '@platform/kit/gen/platform/core/v1/webhook_subscription.ts';
import { newSigningSecret } from './signing-secret.ts';

/**
 * POST /api/webhook-subscription/{id}/rotate-secret (webhook-subscription:write): a new signing
 * secret, the version raised, answered with the record and its new secret. Attempts from then on
 * are signed with it; its event names no field (a secret never enters an event).
 */
export function rotateSecret(rt: ResourceRuntime): Handler<never, unknown> {
  return requiring(roleOf(rt.resource, 'write'), async (request: RotateWebhookSubscriptionSecretRequest, ctx) => {
    const row = await ctx.em.transactional(async (em) => {
      const current = await findVisible(rt, em, { ...ctx, em }, request.id, true);
      Object.assign(current, { signingSecret: newSigningSecret(), version: Number(current.version) + 1, updatedAt: new Date(), updatedBy: actorOf(ctx) });
      await em.flush();
      await recordEvent(em, {
        type: 'webhook-subscription.updated',
        crProcessId: Number(current.crProcessId),
        key: Number(current.id),
        version: Number(current.version),
        actor: actorOf(ctx),
        changes: {},
      });
      return current;
    });
    const [message] = await toMessages(rt, [row], ctx);
    return { ...message, secret: row.signingSecret };
  });
}

import { actorOf } from '@platform/service-kit/auth/caller.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { defineHooks, type ResourceHooks } from '@platform/service-kit/crud/runtime.ts';
import type { RowOf } from '@platform/service-kit/crud/records.ts';
import { webhookSubscription } from '@platform/contracts/core/webhook-subscription.ts';
import { checkedPatterns } from '../../webhooks/event-types.ts';
import { assertOwnerReads } from '../../webhooks/subscriber-access.ts';
import { newSigningSecret } from './signing-secret.ts';

type SubscriptionRow = RowOf<typeof webhookSubscription>;

/** Rows this process created in a call now answering it: only their answer carries the secret. */
const justCreated = new WeakSet<object>();

/**
 * webhook-subscription: the url is checked before the write (target-check.ts); eventTypes are
 * patterns kept in the eventTypeList column; the user who writes it becomes its owner and must read
 * every entity it names (subscriber-access.ts); the signing secret is made on create and shown in
 * that answer only; setting status true again clears the disabling. Deleting a subscription
 * deletes its deliveries.
 */
export function webhookSubscriptionHooks(): ResourceHooks {
  return defineHooks(webhookSubscription, {
    async beforeWrite(values, input, ctx, mode, current) {
      // whoever writes a subscription owns it: its deliveries follow that user's read roles
      values.owner = actorOf(ctx);
      if (mode === 'create') {
        const patterns = checkedPatterns(input.eventTypes);
        await assertOwnerReads(ctx, patterns);
        values.eventTypeList = JSON.stringify(patterns);
        values.signingSecret = newSigningSecret();
        return;
      }
      if (values.status === true && current && !current.status) {
        values.disabledAt = null;
        values.disabledReason = null;
        values.failingSince = null;
      }
    },
    async afterWrite(row, input, ctx, mode, written) {
      if (mode === 'create') {
        justCreated.add(row);
        return;
      }
      if (!written.has('eventTypes')) {
        await assertOwnerReads(ctx, eventTypesOf(row));
        return;
      }
      if (input.eventTypes.length === 0) throw invalidField('eventTypes', 'field.required');
      const patterns = checkedPatterns(input.eventTypes);
      await assertOwnerReads(ctx, patterns);
      row.eventTypeList = JSON.stringify(patterns);
      await ctx.em.flush();
    },
    async beforeDelete(row, ctx) {
      // the delivery log goes with its subscription (docs/adr/0101-what-a-webhook-carries-for-whom.md)
      await ctx.em.execute('delete from core.webhook_delivery where subscription_id = ?', [row.id]);
    },
    async decorate(rows, messages) {
      rows.forEach((row, index) => {
        const message = messages[index];
        if (!message) return;
        message.eventTypes = eventTypesOf(row);
        if (justCreated.has(row)) message.secret = row.signingSecret;
      });
    },
  });
}

/** A subscription's event type patterns, from its eventTypeList column. */
export function eventTypesOf(row: Pick<SubscriptionRow, 'eventTypeList'>): string[] {
  return JSON.parse(row.eventTypeList) as string[];
}

/**
 * The fan-out (docs/adr/0080-webhook-delivery-fan-out-queue.md): the undispatched events of each service's outbox, in
 * `seq` order, become one delivery per active subscription of the event's tenant that names the
 * event's type and whose owner may read its entity (subscriber-access.ts), and are marked
 * dispatched, in one transaction. A transaction-level advisory lock per outbox lets one replica at
 * a time do it, so deliveries are made in `seq` order and only once (the unique (subscription,
 * event) key would refuse a second anyway). core-svc reads and marks the bpm and dms outboxes
 * across the schemas of the one database.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { outboxTable } from '@platform/service-kit/events/outbox-entity.ts';
import { matches } from './event-types.ts';
import { recordKey } from './claim-signals.ts';
import { eventsOf, payloadOf, type ClaimedDelivery } from './delivery-queue.ts';
import { pickLeases, type Slots } from './fan-out-leases.ts';
import { disableForOwner, subscribersOf, verdictOf, type Subscriber } from './subscriber-access.ts';

/** The schemas whose outboxes are fanned out. */
export const OUTBOX_SCHEMAS = ['core', 'bpm', 'dms'] as const;

/** Events read per transaction. */
const BATCH = 500;

interface PendingEvent {
  seq: string;
  event_id: string;
  type: string;
  cr_process_id: string;
  entity: string;
  entity_key: string;
}

/** What one batch did: events handled (0: none waiting, or another replica holds the lock), deliveries made. */
export interface FanOut {
  events: number;
  deliveries: number;
  /** Whether the batch was full: more may be waiting. */
  full: boolean;
  /** The record of each delivery made (claim-signals.ts `recordKey`). */
  made: string[];
  /** The deliveries made and leased at once, to be sent without a claim (fan-out-leases.ts); once the batch committed. */
  leased: ClaimedDelivery[];
}

const NOTHING = { events: 0, deliveries: 0, full: false, made: [] as string[], leasing: [] as { id: string; making: Making }[] };

/** A delivery to make: its event and subscription. */
interface Making {
  event: PendingEvent;
  subscription: Subscriber;
}

/**
 * Fans out one batch of `schema`'s outbox; with `slots`, leases for `leaseMs` the deliveries that
 * fit them (fan-out-leases.ts) and answers them to be sent, as a claim would have.
 */
export async function fanOutBatch(em: EntityManager, schema: (typeof OUTBOX_SCHEMAS)[number], slots?: Slots, leaseMs = 0): Promise<FanOut> {
  const ownerGone = new Map<string, string>();
  const batch = await em.transactional(async (tx) => {
    const [lock] = await tx.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(hashtext(?)) as locked', [`webhook-fan-out:${schema}`]);
    if (!lock?.locked) return NOTHING;
    const table = `"${schema}"."${outboxTable(schema)}"`;
    // marked dispatched as they are read, in the transaction that makes their deliveries
    const events = (
      await tx.execute<PendingEvent[]>(
        `update ${table} set dispatched = true
          where seq in (select seq from ${table} where not dispatched order by seq limit ${BATCH})
          returning seq, event_id, type, cr_process_id, entity, entity_key`,
      )
    ).sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
    if (events.length === 0) return NOTHING;
    const tenants = [...new Set(events.map((event) => event.cr_process_id))];
    const byTenant = new Map<string, Subscriber[]>();
    // the owners' state is asked again at each attempt: read on a connection of its own, outside the batch's transaction
    for (const subscription of await subscribersOf(em, tenants)) {
      const list = byTenant.get(subscription.crProcessId) ?? [];
      list.push(subscription);
      byTenant.set(subscription.crProcessId, list);
    }
    const making: Making[] = [];
    for (const event of events) {
      for (const subscription of byTenant.get(event.cr_process_id) ?? []) {
        if (!matches(subscription.patterns, event.type)) continue;
        // only what the owner may read now (subscriber-access.ts); an owner gone disables it below
        const verdict = verdictOf(subscription.owner, event.entity);
        if (verdict.send) making.push({ event, subscription });
        else if (verdict.ownerGone) ownerGone.set(subscription.id, verdict.reason);
      }
    }
    const made = making.map(({ event, subscription }) => recordKey(subscription.id, event.entity, event.entity_key));
    const leasing = slots
      ? pickLeases(
          making.map(({ event }, index) => ({ tenant: Number(event.cr_process_id), record: made[index]! })),
          slots,
        )
      : new Set<number>();
    const leased: { id: string; making: Making }[] = [];
    for (let start = 0; start < making.length; start += 1000) {
      const chunk = making.slice(start, start + 1000);
      const rows = await tx.execute<{ id: string; leased: boolean }[]>(
        `insert into core.webhook_delivery (cr_process_id, subscription_id, event_id, event_type, entity, entity_key, source_schema, source_seq,
           leased_until, delivery_status, attempts, next_attempt_at, status, version, created_at, updated_at, created_by, updated_by)
         select v.cr_process_id, v.subscription_id, v.event_id, v.event_type, v.entity, v.entity_key, v.source_schema, v.source_seq,
                case when v.lease and not exists (
                    select 1 from core.webhook_delivery e
                     where e.subscription_id = v.subscription_id and e.entity = v.entity and e.entity_key = v.entity_key
                       and e.delivery_status = 'PENDING'
                    offset 0)
                  then now() + (? * interval '1 millisecond') end,
                'PENDING', 0, now(), true, 0, now(), now(), 'svc:core', 'svc:core'
           from (values ${chunk.map(() => '(?::bigint, ?::bigint, ?, ?, ?, ?, ?, ?::bigint, ?::boolean)').join(', ')})
             as v(cr_process_id, subscription_id, event_id, event_type, entity, entity_key, source_schema, source_seq, lease)
         on conflict do nothing
         returning id, source_seq, subscription_id, leased_until is not null as leased`,
        [
          leaseMs,
          ...chunk.flatMap(({ event, subscription }, index) => [
            event.cr_process_id,
            subscription.id,
            event.event_id,
            event.type,
            event.entity,
            event.entity_key,
            schema,
            event.seq,
            leasing.has(start + index),
          ]),
        ],
      );
      const bySource = new Map(chunk.map((entry) => [`${entry.subscription.id}:${entry.event.seq}`, entry]));
      for (const row of rows as ((typeof rows)[number] & { source_seq: string; subscription_id: string })[]) {
        const entry = row.leased ? bySource.get(`${row.subscription_id}:${row.source_seq}`) : undefined;
        if (entry) leased.push({ id: row.id, making: entry });
      }
    }
    return { events: events.length, deliveries: making.length, full: events.length === BATCH, made, leasing: leased };
  });
  // each in a transaction of its own, after the batch's: no two fan-outs lock subscriptions in turn
  for (const [id, reason] of ownerGone) await disableForOwner(em, id, reason);
  const { leasing, ...done } = batch;
  if (leasing.length === 0) return { ...done, leased: [] };
  // the leased deliveries' payloads, read once the batch committed
  const payloads = await eventsOf(
    em,
    schema,
    leasing.map(({ making: { event } }) => event.seq),
  );
  return {
    ...done,
    leased: leasing.map(({ id, making: { event, subscription } }) => ({
      id,
      attempts: 0,
      subscriptionId: subscription.id,
      url: subscription.url,
      secret: subscription.secret,
      eventId: event.event_id,
      type: event.type,
      crProcessId: Number(event.cr_process_id),
      entity: event.entity,
      entityKey: event.entity_key,
      ...payloadOf(payloads.get(event.seq)),
      owner: subscription.ownerRow,
    })),
  };
}

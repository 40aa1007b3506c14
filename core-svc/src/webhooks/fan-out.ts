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
}

const NOTHING: FanOut = { events: 0, deliveries: 0, full: false };

/** Fans out one batch of `schema`'s outbox. */
export async function fanOutBatch(em: EntityManager, schema: (typeof OUTBOX_SCHEMAS)[number]): Promise<FanOut> {
  const ownerGone = new Map<string, string>();
  const batch = await em.transactional(async (tx) => {
    const [lock] = await tx.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(hashtext(?)) as locked', [`webhook-fan-out:${schema}`]);
    if (!lock?.locked) return NOTHING;
    const table = `"${schema}"."${outboxTable(schema)}"`;
    const events = await tx.execute<PendingEvent[]>(
      `select seq, event_id, type, cr_process_id, entity, entity_key from ${table} where not dispatched order by seq limit ${BATCH}`,
    );
    if (events.length === 0) return NOTHING;
    const tenants = [...new Set(events.map((event) => event.cr_process_id))];
    const byTenant = new Map<string, Subscriber[]>();
    for (const subscription of await subscribersOf(tx, tenants)) {
      const list = byTenant.get(subscription.crProcessId) ?? [];
      list.push(subscription);
      byTenant.set(subscription.crProcessId, list);
    }
    const rows: unknown[][] = [];
    for (const event of events) {
      for (const subscription of byTenant.get(event.cr_process_id) ?? []) {
        if (!matches(subscription.patterns, event.type)) continue;
        // only what the owner may read now (subscriber-access.ts); an owner gone disables it below
        const verdict = verdictOf(subscription.owner, event.entity);
        if (verdict.send) rows.push([event.cr_process_id, subscription.id, event.event_id, event.type, event.entity, event.entity_key, schema, event.seq]);
        else if (verdict.ownerGone) ownerGone.set(subscription.id, verdict.reason);
      }
    }
    for (let start = 0; start < rows.length; start += 1000) {
      const chunk = rows.slice(start, start + 1000);
      await tx.execute(
        `insert into core.webhook_delivery (cr_process_id, subscription_id, event_id, event_type, entity, entity_key, source_schema, source_seq,
           delivery_status, attempts, next_attempt_at, status, version, created_at, updated_at, created_by, updated_by)
         select v.*, 'PENDING', 0, now(), true, 0, now(), now(), 'svc:core', 'svc:core'
           from (values ${chunk.map(() => '(?::bigint, ?::bigint, ?, ?, ?, ?, ?, ?::bigint)').join(', ')}) as v
         on conflict do nothing`,
        chunk.flat(),
      );
    }
    await tx.execute(`update ${table} set dispatched = true where seq in (?)`, [events.map((event) => event.seq)]);
    return { events: events.length, deliveries: rows.length, full: events.length === BATCH };
  });
  // each in a transaction of its own, after the batch's: no two fan-outs lock subscriptions in turn
  for (const [id, reason] of ownerGone) await disableForOwner(em, id, reason);
  return batch;
}

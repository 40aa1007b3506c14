/**
 * The deliveries as a queue on PostgreSQL (docs/adr/0080-webhook-delivery-fan-out-queue.md): a dispatcher claims due
 * ones with FOR UPDATE SKIP LOCKED and a lease, commits, sends, and records each attempt. A delivery
 * waits while an earlier one of the same subscription and record is unfinished (per-record order);
 * one whose dispatcher died keeps its lease until it expires, then is claimed again. The claim is
 * fair between tenants: each gets a share of the attempts in flight, the least busy first.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared, type PreparedStatement } from '@platform/service-kit/db/prepared.ts';
import { recordEvent } from '@platform/service-kit/events/outbox.ts';
import { outboxTable } from '@platform/service-kit/events/outbox-entity.ts';
import type { WebhookSettings } from '../config.ts';
import type { AttemptResult } from './send.ts';
import { nextDelayMs } from './retry-schedule.ts';
import { OWNER_COLUMNS, ownerRowOf, type OwnerRow } from './subscriber-access.ts';

/** A claimed delivery with what its attempt needs: the subscription's endpoint and secret, the event. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  subscriptionId: string;
  url: string;
  secret: string;
  eventId: string;
  type: string;
  crProcessId: number;
  entity: string;
  entityKey: string;
  version: number | null;
  occurredAt: Date;
  changes: unknown;
  /** The subscription's owner as the claim read it (subscriber-access.ts's check, without a statement of its own). */
  owner: OwnerRow;
}

interface ClaimedRow extends OwnerRow {
  id: string;
  attempts: number;
  subscription_id: string;
  event_id: string;
  event_type: string;
  cr_process_id: string;
  entity: string;
  entity_key: string;
  source_schema: string;
  source_seq: string;
  url: string;
  signing_secret: string;
}

/**
 * The claim (claimDue): a named statement, planned once per connection; PostgreSQL's planning of it
 * (its policies and the owner's views) cost several times its execution, at every claim.
 */
const CLAIM: PreparedStatement = {
  name: 'webhook-claim',
  text: `with recursive tenants(id) as (
         (select cr_process_id from core.webhook_delivery where delivery_status = 'PENDING' order by cr_process_id limit 1)
         union all
         select (select d.cr_process_id from core.webhook_delivery d
                  where d.delivery_status = 'PENDING' and d.cr_process_id > t.id order by d.cr_process_id limit 1)
           from tenants t where t.id is not null),
       candidates as (
         select c.id, c.next_attempt_at, c.source_seq, c.place + coalesce(($1::jsonb ->> t.id::text)::int, 0) as turn
           from tenants t cross join lateral (
             select d.id, d.next_attempt_at, d.source_seq, row_number() over (order by d.next_attempt_at, d.source_seq) as place
               from core.webhook_delivery d
               join core.webhook_subscription s on s.id = d.subscription_id and s.status
              where d.cr_process_id = t.id and d.delivery_status = 'PENDING' and d.next_attempt_at <= now()
                and (d.leased_until is null or d.leased_until < now())
                and not exists (
                  select 1 from core.webhook_delivery e
                   where e.subscription_id = d.subscription_id and e.entity = d.entity and e.entity_key = d.entity_key
                     and e.delivery_status = 'PENDING' and e.source_seq < d.source_seq
                  offset 0)
              order by d.next_attempt_at, d.source_seq
              limit $2::int) c
          where t.id is not null),
       ranked as (
         select c.id, c.turn, c.next_attempt_at, c.source_seq,
                row_number() over (order by c.turn, c.next_attempt_at, c.source_seq) as place
           from candidates c),
       due as (
         select d.id from core.webhook_delivery d join ranked c on c.id = d.id
          where c.turn <= $3::int or c.place <= $4::int
          order by c.turn, c.next_attempt_at, c.source_seq
          limit $2::int
          for update of d skip locked),
       leased as (
         update core.webhook_delivery d set leased_until = now() + ($5::int * interval '1 millisecond')
           from due where d.id = due.id
         returning d.id, d.attempts, d.subscription_id, d.event_id, d.event_type, d.cr_process_id, d.entity, d.entity_key,
                   d.source_schema, d.source_seq),
       owners as (
         select s.id as subscription_id, s.url, s.signing_secret, ${OWNER_COLUMNS}
           from core.webhook_subscription s left join core.user_info u on u.user_code = s.owner
          where s.id in (select subscription_id from leased))
     select l.*, o.url, o.signing_secret, o.owner, o.internal, o.owner_active, o.owner_super, o.tenant_held, o.reads
       from leased l join owners o using (subscription_id)`,
};

/**
 * Claims up to `limit` due deliveries of active subscriptions for `leaseMs`, fairly between tenants
 * (docs/adr/0082-webhook-figures-and-fairness-between.md): the least busy tenants' oldest deliveries come first (a tenant's
 * turn is its `busy` attempts in flight plus the delivery's place in its line), and a delivery past
 * its tenant's `share` is claimed only while this claim stays within `overShare` (the slots the
 * dispatcher may fill short of its reserve), so one tenant's backlog or slow endpoints never hold
 * back another's, while a tenant alone still uses most of the slots. Answers them with their events.
 */
export async function claimDue(
  em: EntityManager,
  limit: number,
  leaseMs: number,
  fairness: { share: number; overShare: number; busy: ReadonlyMap<number, number> },
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  // one statement: atomic by itself, so no transaction around it. The tenants with waiting
  // deliveries by a skip scan of the (tenant, due) index; from each, up to `limit` of its oldest
  // due ones; then by turn (those in flight and this one's place in its tenant's line), then age.
  // Every delivery within its tenant's share sorts before any beyond one, so a delivery beyond its
  // share is claimed only while the claim so far, itself included, stays within `overShare`.
  // The per-record check keeps its OFFSET 0: it stays a lookup per candidate on the record index
  // (webhook_delivery_record_index), where PostgreSQL would otherwise plan an anti-join that, on a
  // table without statistics yet, reads every pending delivery for each candidate. The owner's
  // state is read once per subscription of the claim, not once per delivery.
  // (The dispatcher runs it with its planner settings: dispatcher.ts `queueFork`.)
  const rows = await queryPrepared<ClaimedRow>(em, CLAIM, [
    JSON.stringify(Object.fromEntries(fairness.busy)),
    limit,
    fairness.share,
    fairness.overShare,
    leaseMs,
  ]);
  if (rows.length === 0) return [];
  const events = new Map<string, OutboxPayload>();
  for (const schema of new Set(rows.map((row) => row.source_schema))) {
    const seqs = rows.filter((row) => row.source_schema === schema).map((row) => row.source_seq);
    for (const [seq, event] of await eventsOf(em, schema, seqs)) events.set(`${schema}:${seq}`, event);
  }
  return rows.map((row) => ({
    id: row.id,
    attempts: Number(row.attempts),
    subscriptionId: row.subscription_id,
    url: row.url,
    secret: row.signing_secret,
    eventId: row.event_id,
    type: row.event_type,
    crProcessId: Number(row.cr_process_id),
    entity: row.entity,
    entityKey: row.entity_key,
    ...payloadOf(events.get(`${row.source_schema}:${row.source_seq}`)),
    owner: ownerRowOf(row),
  }));
}

/** What a delivery carries of its event, as its service's outbox keeps it. */
interface OutboxPayload {
  version: number | null;
  occurred_at: Date;
  changes: unknown;
}

/** The read of events' payloads, by outbox: named statements (queryPrepared). */
const EVENTS_OF = new Map<string, PreparedStatement>();

/** The payloads of events `seqs` of `schema`'s outbox, by seq; outside a transaction. */
export async function eventsOf(em: EntityManager, schema: string, seqs: readonly string[]): Promise<Map<string, OutboxPayload>> {
  let statement = EVENTS_OF.get(schema);
  if (!statement) {
    statement = {
      name: `webhook-events-${schema}`,
      text: `select seq, version, occurred_at, changes from "${schema}"."${outboxTable(schema)}" where seq = any ($1::bigint[])`,
    };
    EVENTS_OF.set(schema, statement);
  }
  const found = await queryPrepared<OutboxPayload & { seq: string }>(em, statement, [seqs]);
  return new Map(found.map((event) => [event.seq, event]));
}

/** A delivery's fields of its event's payload. */
export function payloadOf(event: OutboxPayload | undefined): Pick<ClaimedDelivery, 'version' | 'occurredAt' | 'changes'> {
  return {
    version: event?.version ?? null,
    occurredAt: new Date(event?.occurred_at ?? Date.now()),
    changes: typeof event?.changes === 'string' ? JSON.parse(event.changes) : (event?.changes ?? {}),
  };
}

/** recordDelivered's statement, named: its planning under the tables' policies cost as much as its run. */
const RECORD_DELIVERED: PreparedStatement = {
  name: 'webhook-record-delivered',
  text: `with v as (select * from jsonb_to_recordset($1::jsonb) as v(id bigint, attempts int, code int, latency int, error text, excerpt text)),
       done as (
         update core.webhook_delivery d set attempts = v.attempts, last_status_code = v.code, last_latency_ms = v.latency, last_error = v.error,
           response_excerpt = v.excerpt, last_attempt_at = now(), delivery_status = 'DELIVERED', delivered_at = now(), next_attempt_at = null,
           leased_until = null
          from v where d.id = v.id returning d.subscription_id)
     update core.webhook_subscription s set failing_since = null
       where s.id in (select subscription_id from done) and s.failing_since is not null`,
};

/** A successful attempt, to be recorded with others (recordDelivered). */
export interface Delivered {
  delivery: ClaimedDelivery;
  result: AttemptResult;
}

/**
 * Records the successful attempts of many deliveries in one statement: each DELIVERED, and the
 * failing_since of their subscriptions cleared where one was set. What recordAttempt does for one
 * success, for a batch (the dispatcher's group commit, delivery-recorder.ts).
 */
export async function recordDelivered(em: EntityManager, batch: readonly Delivered[]): Promise<void> {
  if (batch.length === 0) return;
  const rows = batch.map(({ delivery, result }) => ({
    id: delivery.id,
    attempts: delivery.attempts + 1,
    code: result.statusCode ?? null,
    latency: result.latencyMs,
    error: result.error?.slice(0, 1000) ?? null,
    excerpt: result.excerpt ?? null,
  }));
  await queryPrepared(em, RECORD_DELIVERED, [JSON.stringify(rows)]);
}

/**
 * Records one attempt: DELIVERED on success; else the next attempt per the schedule, FAILED when it
 * is spent. The subscription remembers since when it has failed without a success; failing for
 * longer than `disableAfterMs` disables it (status false, disabledAt, disabledReason), as a change
 * of the record with its event.
 */
export async function recordAttempt(
  em: EntityManager,
  delivery: ClaimedDelivery,
  result: AttemptResult,
  settings: WebhookSettings,
): Promise<{ retryInMs: number | undefined }> {
  const attempts = delivery.attempts + 1;
  const common = [attempts, result.statusCode ?? null, result.latencyMs, result.error?.slice(0, 1000) ?? null, result.excerpt ?? null];
  if (result.ok) {
    // the common case in one statement, no transaction around it: the delivery done, and its
    // subscription's failing_since cleared only where one was set
    await em.execute(
      `with done as (
         update core.webhook_delivery set attempts = ?, last_status_code = ?, last_latency_ms = ?, last_error = ?, response_excerpt = ?,
           last_attempt_at = now(), delivery_status = 'DELIVERED', delivered_at = now(), next_attempt_at = null, leased_until = null
          where id = ? returning subscription_id)
       update core.webhook_subscription s set failing_since = null from done where s.id = done.subscription_id and s.failing_since is not null`,
      [...common, delivery.id],
    );
    return { retryInMs: undefined };
  }
  return em.transactional(async (tx) => {
    const delay = nextDelayMs(settings.retryScheduleMs, attempts);
    await tx.execute(
      `update core.webhook_delivery set attempts = ?, last_status_code = ?, last_latency_ms = ?, last_error = ?, response_excerpt = ?,
         last_attempt_at = now(), delivery_status = ?, next_attempt_at = ${delay === undefined ? 'null' : "now() + (? * interval '1 millisecond')"},
         leased_until = null
       where id = ?`,
      [...common, delay === undefined ? 'FAILED' : 'PENDING', ...(delay === undefined ? [] : [delay]), delivery.id],
    );
    const [subscription] = await tx.execute<{ id: string; version: number; cr_process_id: string; failing_ms: number | null; status: boolean }[]>(
      `update core.webhook_subscription set failing_since = coalesce(failing_since, now()) where id = ?
       returning id, version, cr_process_id, status, extract(epoch from now() - failing_since) * 1000 as failing_ms`,
      [delivery.subscriptionId],
    );
    if (!subscription?.status || Number(subscription.failing_ms ?? 0) < settings.disableAfterMs) return { retryInMs: delay };
    const reason = `failing since ${Math.round(Number(subscription.failing_ms) / 1000)} s ago, last: ${(result.error ?? '').slice(0, 200)}`;
    await tx.execute(
      `update core.webhook_subscription set status = false, disabled_at = now(), disabled_reason = ?, version = version + 1,
         updated_at = now(), updated_by = 'svc:core' where id = ?`,
      [reason, delivery.subscriptionId],
    );
    await recordEvent(tx, {
      type: 'webhook-subscription.updated',
      crProcessId: Number(subscription.cr_process_id),
      key: Number(subscription.id),
      version: Number(subscription.version) + 1,
      actor: 'svc:core',
      changes: { status: { from: true, to: false }, disabledReason: { from: null, to: reason } },
    });
    return { retryInMs: undefined };
  });
}

/**
 * core-svc's webhook dispatcher (docs/adr/0080-webhook-delivery-fan-out-queue.md): looks every POLL_MS for outboxes
 * with undispatched events (one statement on their partial indexes); fans the waiting events out
 * into deliveries (fan-out.ts), then
 * claims due deliveries and sends them, at most CONCURRENCY at a time, each tenant's within its
 * TENANT_SHARE first and beyond it only while RESERVE slots stay free (delivery-queue.ts, send.ts).
 * Any number of core-svc replicas may run it. Stopping waits for the attempts in flight, within a
 * bound; a process killed outright leaves leases that expire, and the deliveries are sent again
 * with the same webhook-id.
 */
import { TableNotFoundException, type MikroORM } from '@mikro-orm/postgresql';
import { Webhook } from 'standardwebhooks';
import type { WebhookSettings } from '../config.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { WebhookMetrics } from '@platform/service-kit/metrics/webhook.metrics.ts';
import { claimDue, recordAttempt, type ClaimedDelivery } from './delivery-queue.ts';
import { DeliveryRecorder } from './delivery-recorder.ts';
import { fanOutBatch, OUTBOX_SCHEMAS, type FanOut } from './fan-out.ts';
import { outboxTable } from '@platform/service-kit/events/outbox-entity.ts';

type Schema = (typeof OUTBOX_SCHEMAS)[number];
import { deliveryBody } from './payload.ts';
import { sendAttempt } from './send.ts';
import { mayDeliver } from './subscriber-access.ts';
import { queueFork } from './queue-fork.ts';
import { queryPrepared, type PreparedStatement } from '@platform/service-kit/db/prepared.ts';
import { ClaimSignals, recordKey } from './claim-signals.ts';
import type { Slots } from './fan-out-leases.ts';

/** Attempts in flight per process. */
const CONCURRENCY = 16;
/**
 * A tenant's share of the slots: its attempts up to this many are claimed before any tenant's beyond
 * it (docs/adr/0082-webhook-figures-and-fairness-between.md).
 */
const TENANT_SHARE = 4;
/**
 * Slots kept for attempts within their tenant's share: attempts beyond it fill at most
 * CONCURRENCY - RESERVE, so a tenant whose endpoints hang (each attempt held up to
 * WEBHOOK_TIMEOUT_MS) leaves room for another's at once, and a tenant alone uses 12 slots.
 */
const RESERVE = 4;
/**
 * How often the outboxes are looked at: half of it is the average wait of an event before its
 * fan-out (docs/adr/0076-events-a-transactional-outbox.md: no NOTIFY, which would serialise the writers' commits).
 */
const POLL_MS = 50;
/** How often due deliveries are claimed when nothing new was fanned out: retries, expired leases, redeliveries. */
const CLAIM_POLL_MS = 1_000;
/** Before the first batch of an outbox's fan-out. */
const NO_BATCH: FanOut = { events: 0, deliveries: 0, full: true, made: [], leased: [] };
/**
 * Attempts answered but not yet recorded, with those in flight, at most: the recorder writes up to
 * 64 in one statement (delivery-recorder.ts); beyond, no more is claimed until records are written.
 */
const MOST_UNRECORDED = 64;
/** How long a stop waits for the attempts in flight. */
const STOP_BOUND_MS = 5_000;

export function startWebhookDispatcher(orm: MikroORM, settings: WebhookSettings, log: Logger, registry: Runtime['metrics']): { close(): Promise<void> } {
  const metrics = new WebhookMetrics(registry);
  // successes recorded together, failures (rarer, and each may disable its subscription) one by one
  const recorder = new DeliveryRecorder(orm);
  /** Attempts from their claim to their record written, which a stop waits for. */
  const inFlight = new Set<Promise<boolean>>();
  /** Attempts from their claim to their answer: what the slots count. */
  let sending = 0;
  /** When a finished attempt calls for a claim (claim-signals.ts). */
  const signals = new ClaimSignals();
  /** Attempts in flight by tenant (crProcessId), for the claim's fairness. */
  const busy = new Map<number, number>();
  let stopping = false;
  let running = false;
  let again = false;

  /** The outboxes with events to fan out, as the last look found them. */
  const toFanOut = new Set<Schema>();

  /** Whether the next cycle claims: set by new deliveries, finished attempts, retries due and the claim poll. */
  let claim = true;

  const cycle = async () => {
    for (const schema of OUTBOX_SCHEMAS) {
      if (!toFanOut.delete(schema)) continue;
      try {
        for (let batch = NO_BATCH; batch.full && !stopping;) {
          // while nothing due waits in the queue, what the fan-out makes is leased and sent at once,
          // by the claim's rule, without a claim (fan-out-leases.ts); what it leaves is claimed
          batch = await fanOutBatch(queueFork(orm), schema, signals.drained ? slots() : undefined, settings.leaseMs);
          for (const key of batch.made) signals.made(key);
          for (const delivery of batch.leased) track(delivery);
          if (batch.deliveries > batch.leased.length) {
            claim = true;
            signals.leftBehind();
          }
        }
      } catch (error) {
        // another service's outbox appears with its migrations, which may not have run yet
        if (!(error instanceof TableNotFoundException)) log.warn({ err: error, schema }, 'webhook fan-out failed');
      }
    }
    // events of tenants without subscriptions make no delivery: no claim is needed for them
    if (!claim) return;
    claim = false;
    while (!stopping) {
      const free = slots();
      const claimed = await claimDue(queueFork(orm), free.limit, settings.leaseMs, free);
      for (const delivery of claimed) track(delivery);
      // fewer than it could take, within the share's bound too: nothing due was left behind, and
      // no second claim is made to learn it
      signals.claimed(claimed.length, Math.min(free.limit, free.overShare));
      if (signals.drained || claimed.length === 0 || slots().limit <= 0) break;
    }
  };

  /** The attempt slots free now, and the fairness a claim or a fan-out's lease fills them by. */
  const slots = (): Slots => ({
    limit: Math.max(0, Math.min(CONCURRENCY - sending, MOST_UNRECORDED - inFlight.size)),
    share: TENANT_SHARE,
    overShare: Math.max(0, CONCURRENCY - RESERVE - sending),
    busy,
  });

  const track = (delivery: ClaimedDelivery) => {
    const tenant = delivery.crProcessId;
    sending += 1;
    busy.set(tenant, (busy.get(tenant) ?? 0) + 1);
    let sent = false;
    /** The attempt's slot, freed once its answer is in: its record is written with others meanwhile. */
    const free = () => {
      if (sent) return;
      sent = true;
      sending -= 1;
      const left = (busy.get(tenant) ?? 1) - 1;
      if (left > 0) busy.set(tenant, left);
      else busy.delete(tenant);
      if (!signals.drained) claimSoon();
    };
    const work: Promise<boolean> = deliver(delivery, free)
      .catch(() => false)
      .then((settled) => {
        free();
        inFlight.delete(work);
        if (signals.ended(recordKey(delivery.subscriptionId, delivery.entity, delivery.entityKey), settled)) claimSoon();
        else if (inFlight.size === 0) signals.idle();
        return settled;
      });
    inFlight.add(work);
  };

  /**
   * One attempt, `sent` told once its answer is in; true when its delivery is settled (delivered,
   * failed for good, or not to be sent), false when it waits for a retry or its lease.
   */
  const deliver = async (delivery: ClaimedDelivery, sent: () => void): Promise<boolean> => {
    if (!(await ownerAllows(delivery))) return true;
    const body = deliveryBody(delivery);
    const at = new Date();
    const headers = {
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(delivery.secret).sign(delivery.eventId, at, body),
    };
    const result = await sendAttempt(delivery.url, body, headers, settings);
    sent();
    metrics.attempted(result.ok, delivery.occurredAt);
    try {
      if (result.ok) {
        await recorder.record(delivery, result);
        return true;
      }
      const { retryInMs } = await recordAttempt(queueFork(orm), delivery, result, settings);
      // a retry sooner than the poll would find it is woken for on time
      if (retryInMs !== undefined && retryInMs < CLAIM_POLL_MS) setTimeout(claimSoon, retryInMs + 5).unref();
      return retryInMs === undefined;
    } catch (error) {
      // the lease expires and the delivery is sent again: at least once
      log.warn({ err: error, deliveryId: delivery.id }, 'could not record a webhook attempt');
      return false;
    }
  };

  /** The owner's live read roles, asked again at every attempt (subscriber-access.ts); unknown: not sent, the lease expires. */
  const ownerAllows = (delivery: ClaimedDelivery) =>
    mayDeliver(queueFork(orm), delivery).catch((error: unknown) => {
      log.warn({ err: error, deliveryId: delivery.id }, 'could not check a webhook owner');
      return false;
    });

  function claimSoon(): void {
    claim = true;
    wake();
  }

  function wake(): void {
    if (stopping) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    cycle()
      .catch((error: unknown) => log.warn({ err: error }, 'webhook dispatch failed'))
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  // one named statement on the outboxes' partial indexes of undispatched rows, every POLL_MS; the
  // first by seq of each, which walks its index whether or not the table has statistics yet
  const PENDING: PreparedStatement = {
    name: 'webhook-outbox-pending',
    text: `select ${OUTBOX_SCHEMAS.map(
      (schema) => `(select seq from "${schema}"."${outboxTable(schema)}" where not dispatched order by seq limit 1) is not null as "${schema}"`,
    ).join(', ')}`,
  };
  let looking = false;
  const look = async () => {
    if (looking || stopping) return;
    looking = true;
    try {
      const [pending] = await queryPrepared<Record<Schema, boolean>>(queueFork(orm), PENDING, []);
      for (const schema of OUTBOX_SCHEMAS) if (pending?.[schema]) toFanOut.add(schema);
    } catch {
      // an outbox not made yet (its service's migrations are still to run): the fan-out tells
      for (const schema of OUTBOX_SCHEMAS) toFanOut.add(schema);
    } finally {
      looking = false;
    }
    if (toFanOut.size > 0) wake();
  };
  const everything = () => {
    for (const schema of OUTBOX_SCHEMAS) toFanOut.add(schema);
    wake();
  };
  const poll = setInterval(() => void look(), POLL_MS);
  poll.unref();
  const claimPoll = setInterval(claimSoon, CLAIM_POLL_MS);
  claimPoll.unref();
  everything();
  return {
    async close() {
      stopping = true;
      clearInterval(poll);
      clearInterval(claimPoll);
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, STOP_BOUND_MS).unref())]);
    },
  };
}

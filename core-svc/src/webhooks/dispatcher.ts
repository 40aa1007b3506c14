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
import { scopedFork, type Scope } from '@platform/service-kit/db/tenant-scope.ts';

/** Every tenant's events and deliveries: the dispatcher's own path past the wall. */
const WEBHOOKS: Scope = { platform: 'webhooks' };

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
const NO_BATCH: FanOut = { events: 0, deliveries: 0, full: true };
/** How long a stop waits for the attempts in flight. */
const STOP_BOUND_MS = 5_000;

export function startWebhookDispatcher(orm: MikroORM, settings: WebhookSettings, log: Logger, registry: Runtime['metrics']): { close(): Promise<void> } {
  const metrics = new WebhookMetrics(registry);
  // successes recorded together, failures (rarer, and each may disable its subscription) one by one
  const recorder = new DeliveryRecorder(orm);
  const inFlight = new Set<Promise<void>>();
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
          batch = await fanOutBatch(scopedFork(orm, WEBHOOKS), schema);
          if (batch.deliveries > 0) claim = true;
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
      const claimed = await claimDue(scopedFork(orm, WEBHOOKS), CONCURRENCY - inFlight.size, settings.leaseMs, {
        share: TENANT_SHARE,
        overShare: Math.max(0, CONCURRENCY - RESERVE - inFlight.size),
        busy,
      });
      for (const delivery of claimed) track(delivery.crProcessId, deliver(delivery));
      if (claimed.length === 0 || inFlight.size >= CONCURRENCY) break;
    }
  };

  const track = (tenant: number, work: Promise<void>) => {
    inFlight.add(work);
    busy.set(tenant, (busy.get(tenant) ?? 0) + 1);
    void work.finally(() => {
      inFlight.delete(work);
      const left = (busy.get(tenant) ?? 1) - 1;
      if (left > 0) busy.set(tenant, left);
      else busy.delete(tenant);
      claimSoon();
    });
  };

  const deliver = async (delivery: ClaimedDelivery) => {
    if (!(await ownerAllows(delivery))) return;
    const body = deliveryBody(delivery);
    const at = new Date();
    const headers = {
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(delivery.secret).sign(delivery.eventId, at, body),
    };
    const result = await sendAttempt(delivery.url, body, headers, settings);
    metrics.attempted(result.ok, delivery.occurredAt);
    try {
      if (result.ok) {
        await recorder.record(delivery, result);
        return;
      }
      const { retryInMs } = await recordAttempt(scopedFork(orm, WEBHOOKS), delivery, result, settings);
      // a retry sooner than the poll would find it is woken for on time
      if (retryInMs !== undefined && retryInMs < CLAIM_POLL_MS) setTimeout(claimSoon, retryInMs + 5).unref();
    } catch (error) {
      // the lease expires and the delivery is sent again: at least once
      log.warn({ err: error, deliveryId: delivery.id }, 'could not record a webhook attempt');
    }
  };

  /** The owner's live read roles, asked again at every attempt (subscriber-access.ts); unknown: not sent, the lease expires. */
  const ownerAllows = (delivery: ClaimedDelivery) =>
    mayDeliver(scopedFork(orm, WEBHOOKS), delivery).catch((error: unknown) => {
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

  // one statement on the outboxes' partial indexes of undispatched rows, every POLL_MS
  const PENDING = `select ${OUTBOX_SCHEMAS.map((schema) => `exists (select 1 from "${schema}"."${outboxTable(schema)}" where not dispatched) as "${schema}"`).join(', ')}`;
  let looking = false;
  const look = async () => {
    if (looking || stopping) return;
    looking = true;
    try {
      const [pending] = await scopedFork(orm, WEBHOOKS).execute<Record<Schema, boolean>[]>(PENDING);
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

/**
 * core-svc's webhook dispatcher (docs/decisions.md "Webhooks"): wakes on the outbox's commit
 * notification, or every second; fans the waiting events out into deliveries (fan-out.ts), then
 * claims due deliveries and sends them, at most CONCURRENCY at a time (delivery-queue.ts, send.ts).
 * Any number of core-svc replicas may run it. Stopping waits for the attempts in flight, within a
 * bound; a process killed outright leaves leases that expire, and the deliveries are sent again
 * with the same webhook-id.
 */
import { TableNotFoundException, type MikroORM } from '@mikro-orm/postgresql';
import { Webhook } from 'standardwebhooks';
import type { WebhookSettings } from '@platform/libs/config/config.ts';
import { databaseUrlOf } from '@platform/libs/config/database-url.ts';
import { listenToOutbox } from '@platform/libs/events/outbox-listener.ts';
import type { Logger } from '@platform/libs/log/logger.ts';
import type { Runtime } from '@platform/libs/grpc/server.ts';
import { WebhookMetrics } from '@platform/libs/metrics/webhook.metrics.ts';
import { claimDue, recordAttempt, type ClaimedDelivery } from './delivery-queue.ts';
import { fanOutBatch, OUTBOX_SCHEMAS } from './fan-out.ts';

type Schema = (typeof OUTBOX_SCHEMAS)[number];
import { deliveryBody } from './payload.ts';
import { sendAttempt } from './send.ts';

/** Attempts in flight per process. */
const CONCURRENCY = 16;
/** The fallback poll: due retries, expired leases, a missed notification. */
const POLL_MS = 1_000;
/** How long a stop waits for the attempts in flight. */
const STOP_BOUND_MS = 5_000;

export function startWebhookDispatcher(orm: MikroORM, settings: WebhookSettings, log: Logger, registry: Runtime['metrics']): { close(): Promise<void> } {
  const metrics = new WebhookMetrics(registry);
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let running = false;
  let again = false;

  /** The outboxes with events to fan out, as notified (all of them on the poll). */
  const toFanOut = new Set<Schema>();

  const cycle = async () => {
    for (const schema of OUTBOX_SCHEMAS) {
      if (!toFanOut.delete(schema)) continue;
      try {
        while ((await fanOutBatch(orm.em.fork(), schema)) > 0 && !stopping);
      } catch (error) {
        // another service's outbox appears with its migrations, which may not have run yet
        if (!(error instanceof TableNotFoundException)) log.warn({ err: error, schema }, 'webhook fan-out failed');
      }
    }
    while (!stopping) {
      const claimed = await claimDue(orm.em.fork(), CONCURRENCY - inFlight.size, settings.leaseMs);
      for (const delivery of claimed) track(deliver(delivery));
      if (claimed.length === 0 || inFlight.size >= CONCURRENCY) break;
    }
  };

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => {
      inFlight.delete(work);
      wake();
    });
  };

  const deliver = async (delivery: ClaimedDelivery) => {
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
      const { retryInMs } = await recordAttempt(orm.em.fork(), delivery, result, settings);
      // a retry sooner than the poll would find it is woken for on time
      if (retryInMs !== undefined && retryInMs < POLL_MS) setTimeout(wake, retryInMs + 5).unref();
    } catch (error) {
      // the lease expires and the delivery is sent again: at least once
      log.warn({ err: error, deliveryId: delivery.id }, 'could not record a webhook attempt');
    }
  };

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

  // a commit's notification names its outbox; a redelivery's names none, and asks for a claim only
  const onNotify = (payload: string) => {
    const schema = OUTBOX_SCHEMAS.find((name) => name === payload);
    if (schema) toFanOut.add(schema);
    wake();
  };
  const everything = () => {
    for (const schema of OUTBOX_SCHEMAS) toFanOut.add(schema);
    wake();
  };
  const listener = listenToOutbox(databaseUrlOf(), 'core-svc webhooks', log, onNotify);
  const poll = setInterval(everything, POLL_MS);
  poll.unref();
  everything();
  return {
    async close() {
      stopping = true;
      clearInterval(poll);
      await listener.close();
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, STOP_BOUND_MS).unref())]);
    },
  };
}

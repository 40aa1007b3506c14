import { Counter, Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS } from '@platform/kit/metrics/registry.ts';

/**
 * The webhook dispatcher's figures on core-svc's /metrics (core-svc/src/webhooks/dispatcher.ts): attempts by outcome
 * (`webhook_attempts_total{outcome="delivered|failed"}`), and the time from an event's change to
 * its endpoint's 2xx (`webhook_delivery_seconds`, first attempts and retries alike).
 *
 * @example
 * const metrics = new WebhookMetrics(registry);
 * metrics.attempted(true, occurredAt);
 */
export class WebhookMetrics {
  readonly #attempts: Counter<'outcome'>;
  readonly #latency: Histogram;

  constructor(registry: Registry) {
    this.#attempts = new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.#latency = new Histogram({
      name: 'webhook_delivery_seconds',
      help: "Time from an event's change to its endpoint's 2xx answer",
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  attempted(ok: boolean, occurredAt: Date): void {
    this.#attempts.inc({ outcome: ok ? 'delivered' : 'failed' });
    if (ok) this.#latency.observe((Date.now() - occurredAt.getTime()) / 1000);
  }
}

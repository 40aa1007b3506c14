import { Counter, type Registry } from 'prom-client';
import { GrpcLatency } from '@platform/kit/metrics/grpc.metrics.ts';
import { HttpLatency } from '@platform/kit/metrics/http.metrics.ts';
import { createMetricsRegistry } from '@platform/kit/metrics/registry.ts';

/**
 * The gateway's Prometheus metrics, served on the management port only
 * (docs/adr/0045-metrics-prom-client-one-registry.md): the process figures, HTTP requests, gRPC client calls, rate-limit and password-guard
 * refusals.
 */
export class GatewayMetrics {
  readonly registry: Registry;
  readonly grpcClient: GrpcLatency;
  readonly http: HttpLatency;
  readonly #rateLimitRefusals: Counter<'tier'>;
  readonly #guardRefusals: Counter<'guard' | 'reason'>;

  constructor(registry: Registry = createMetricsRegistry()) {
    this.registry = registry;
    this.grpcClient = new GrpcLatency(registry, 'client');
    this.http = new HttpLatency(registry);
    this.#rateLimitRefusals = new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Requests refused 429 by the per-address rate limit, by tier (public, api-key, jwt)',
      labelNames: ['tier'],
      registers: [registry],
    });
    this.#guardRefusals = new Counter({
      name: 'password_guard_refusals_total',
      help: 'Password attempts refused 429 by a guard (login, share-password): too many wrong passwords (refused) or too many in progress (busy)',
      labelNames: ['guard', 'reason'],
      registers: [registry],
    });
  }

  rateLimitRefused(tier: string): void {
    this.#rateLimitRefusals.inc({ tier });
  }

  guardRefused(guard: string, reason: 'refused' | 'busy'): void {
    this.#guardRefusals.inc({ guard, reason });
  }
}

import { Counter, Histogram, type Registry } from 'prom-client';
import { GrpcLatency } from '@platform/libs/metrics/grpc.metrics.ts';
import { watchPool, type PoolFigures } from '@platform/libs/metrics/pool.metrics.ts';
import { createMetricsRegistry, LATENCY_BUCKETS } from '@platform/libs/metrics/registry.ts';

type HttpChild = ReturnType<Histogram<string>['labels']>;

/** The `route` label of a request no route matched: never its path, which may hold ids or tokens. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The gateway's Prometheus metrics, served on the management port only (docs/decisions.md
 * "Metrics"): the process figures, HTTP requests, gRPC client calls, rate-limit and password-guard
 * refusals and the session-check pool.
 */
export class GatewayMetrics {
  readonly registry: Registry;
  readonly grpcClient: GrpcLatency;
  readonly #http: Histogram<'method' | 'route' | 'status'>;
  /** route → method → status → child: a request observes without building a label object. */
  readonly #httpChildren = new Map<string, Map<string, HttpChild[]>>();
  readonly #rateLimitRefusals: Counter<'tier'>;
  readonly #guardRefusals: Counter<'guard' | 'reason'>;

  constructor(registry: Registry = createMetricsRegistry()) {
    this.registry = registry;
    this.grpcClient = new GrpcLatency(registry, 'client');
    this.#http = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its response ending, by method, route template and status; its _count is the request counter',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
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

  /** One finished request; `route` is the matched route's template, or UNMATCHED_ROUTE. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.#httpChildren.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.#httpChildren.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = [];
      byMethod.set(method, byStatus);
    }
    let child = byStatus[status];
    if (!child) {
      child = this.#http.labels({ method, route, status: String(status) });
      byStatus[status] = child;
    }
    child.observe(seconds);
  }

  rateLimitRefused(tier: string): void {
    this.#rateLimitRefusals.inc({ tier });
  }

  guardRefused(guard: string, reason: 'refused' | 'busy'): void {
    this.#guardRefusals.inc({ guard, reason });
  }

  /** The session check's pg pool. */
  watchSessionPool(pool: () => PoolFigures): void {
    watchPool(this.registry, 'session-check', pool);
  }
}

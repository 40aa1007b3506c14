import { collectDefaultMetrics, Registry } from 'prom-client';

/** Latency buckets in seconds for HTTP and gRPC: few enough to keep every series cheap, fine enough around a typical 1-50 ms call. */
export const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/**
 * A process's own prom-client registry with the default process figures: CPU, memory, handles,
 * GC, and event-loop lag (`nodejs_eventloop_lag_seconds` and its percentiles, from
 * monitorEventLoopDelay). Its own registry, not the global one, so nothing a library registers
 * globally is served by accident.
 *
 * @example
 * const registry = createMetricsRegistry();
 * new Histogram({ name: 'x_seconds', help: '…', registers: [registry] });
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  return registry;
}

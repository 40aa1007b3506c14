/** The ids of the span a log line is written in, as lowercase hex. */
export interface SpanIds {
  traceId: string;
  spanId: string;
}

/** What the tracing SDK offers the rest of the process, once start-tracing.ts has started it. */
export interface TracingBridge {
  /** The active span's ids, or undefined outside any span. */
  activeSpanIds(): SpanIds | undefined;
  /** Writes the active context's propagation headers (`traceparent`, `tracestate`) into `carrier`. */
  inject(carrier: Record<string, string>): void;
  /** Exports the spans still buffered and stops the SDK. */
  shutdown(): Promise<void>;
}

let bridge: TracingBridge | undefined;

/**
 * Called once by start-tracing.ts when tracing is on. The platform's code reads spans through the
 * functions below, never through `@opentelemetry/api`, so that with tracing off no OpenTelemetry
 * module is loaded at all and each of them is one comparison with `undefined`.
 */
export function installTracingBridge(installed: TracingBridge): void {
  bridge = installed;
}

/**
 * Whether tracing runs in this process (the bridge is installed): for code that must take the
 * instrumented path only then, such as the gateway's gRPC calls.
 */
export function tracingOn(): boolean {
  return bridge !== undefined;
}

/**
 * The active span's trace and span ids; undefined when tracing is off or no span is active.
 *
 * @example
 * const ids = activeSpanIds(); // { traceId: '4bf9…', spanId: '00f0…' } inside a request's span
 */
export function activeSpanIds(): SpanIds | undefined {
  return bridge?.activeSpanIds();
}

/**
 * The W3C trace context headers of the active span, for a request written by hand (the gateway's
 * download relay writes its request head itself, out of reach of the HTTP instrumentation). Empty
 * when tracing is off.
 *
 * @example
 * for (const [name, value] of Object.entries(traceHeaders())) lines.push(`${name}: ${value}`);
 */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  bridge?.inject(carrier);
  return carrier;
}

/** How long a stopping process waits for its last spans to reach the collector. */
const FLUSH_BOUND_MS = 2_000;

/**
 * Exports the spans still buffered, for a process about to exit; waits at most 2 s (a collector
 * that does not answer must not hold the exit up). Resolves at once when tracing is off.
 *
 * @example
 * drainHttpServer(server).then(() => flushTracing()).finally(() => process.exit(0));
 */
export async function flushTracing(): Promise<void> {
  if (!bridge) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([bridge.shutdown().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_BOUND_MS)))]);
  clearTimeout(timer);
}

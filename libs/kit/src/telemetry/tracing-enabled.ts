type Env = Record<string, string | undefined>;

/**
 * Whether this process traces: only where an OTLP endpoint for traces is configured
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, not blank) and
 * `OTEL_SDK_DISABLED` is not `true`. Everything else leaves tracing entirely off: no OpenTelemetry
 * module is loaded (docs/adr/0092-tracing-with-opentelemetry-on-only.md).
 *
 * @example
 * tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }) // true
 * tracingEnabled({})                                                       // false
 */
export function tracingEnabled(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

import { register } from 'node:module';
import { context, propagation, trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { platformInstrumentations } from './instrumentations.ts';
import { defaultServiceName } from './service-name.ts';
import { installTracingBridge } from './trace-bridge.ts';

/**
 * Starts tracing in this process; imported by register.ts only when tracing is on, before the
 * process's own modules. ES modules can be instrumented only through a loader hook registered
 * before they are imported: import-in-the-middle's, told through a message channel which modules
 * the instrumentations hook, so that it wraps those and leaves every other module as it is (Node
 * 24.9 lacks the fix that import-in-the-middle's in-thread `module.registerHooks` loader needs,
 * nodejs/node#59929, so this is the off-thread `module.register` one). Then the SDK, configured by
 * the standard `OTEL_*` variables: the OTLP exporter (`OTEL_EXPORTER_OTLP_*`, http/protobuf unless
 * `OTEL_EXPORTER_OTLP_PROTOCOL` says otherwise), the batch processor (`OTEL_BSP_*`), the sampler
 * (`OTEL_TRACES_SAMPLER`), W3C trace context propagation. Traces only: metrics stay Prometheus's
 * and logs stdout's, unless `OTEL_METRICS_EXPORTER` / `OTEL_LOGS_EXPORTER` ask for more.
 */
const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

process.env.OTEL_METRICS_EXPORTER ??= 'none';
process.env.OTEL_LOGS_EXPORTER ??= 'none';

const sdk = new NodeSDK({ serviceName: defaultServiceName(process.argv[1]), instrumentations: platformInstrumentations() });
sdk.start();

installTracingBridge({
  activeSpanIds: () => {
    const span = trace.getActiveSpan();
    if (!span) return undefined;
    const { traceId, spanId } = span.spanContext();
    return trace.isSpanContextValid(span.spanContext()) ? { traceId, spanId } : undefined;
  },
  inject: (carrier) => propagation.inject(context.active(), carrier),
  shutdown: () => sdk.shutdown(),
});

await waitForAllMessagesAcknowledged();

/**
 * When a process traces, and under which name (docs/adr/0092-tracing-with-opentelemetry-on-only.md): only with an OTLP
 * endpoint for traces, never with OTEL_SDK_DISABLED=true; `service.name` from the entry's folder
 * unless OTEL_SERVICE_NAME is set (the SDK then reads it itself).
 */
import test from 'ava';
import { defaultServiceName } from '@platform/kit/telemetry/service-name.ts';
import { tracingEnabled } from '@platform/kit/telemetry/tracing-enabled.ts';
import { activeSpanIds, flushTracing, traceHeaders, tracingOn } from '@platform/kit/telemetry/trace-bridge.ts';

test('tracing is on with OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, off without, blank or disabled', (t) => {
  t.true(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }));
  t.true(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }));
  t.false(tracingEnabled({}));
  t.false(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }));
  t.false(tracingEnabled({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://collector:4318' }), 'a metrics endpoint alone traces nothing');
  t.false(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' }));
  t.true(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'false' }));
});

test('service.name is the entry script’s folder (a worker named after its service), platform for anything else, and left to the SDK when OTEL_SERVICE_NAME is set', (t) => {
  t.is(defaultServiceName('/app/gateway/src/main.ts', {}), 'gateway');
  t.is(defaultServiceName('/app/core-svc/src/main.ts', {}), 'core-svc');
  t.is(defaultServiceName('/srv/x/bpm-svc/src/main.ts', {}), 'bpm-svc');
  t.is(defaultServiceName('/app/dms-svc/src/main.ts', {}), 'dms-svc');
  t.is(defaultServiceName('/app/dms-svc/src/worker.ts', {}), 'dms-worker');
  t.is(defaultServiceName('/app/core-svc/src/worker.ts', {}), 'core-worker');
  t.is(defaultServiceName('/app/scripts/migrate.ts', {}), 'platform');
  t.is(defaultServiceName(undefined, {}), 'platform');
  t.is(defaultServiceName('/app/gateway/src/main.ts', { OTEL_SERVICE_NAME: 'edge' }), undefined);
});

test('with tracing off the bridge answers nothing: no span ids, no headers, a flush that returns at once', async (t) => {
  t.false(tracingOn());
  t.is(activeSpanIds(), undefined);
  t.deepEqual(traceHeaders(), {});
  await t.notThrowsAsync(flushTracing());
});

/**
 * The module every platform process is started with (`node --import
 * ./libs/kit/src/telemetry/register.ts <entry>`): with tracing on (tracing-enabled.ts) it starts the
 * SDK and its loader hook (start-tracing.ts) before the process's own imports; with tracing off it
 * reads two environment variables and returns, loading no OpenTelemetry module and registering no
 * hook, so the process runs as it would without it (bench/tracing-cost.ts measures that).
 */
import { tracingEnabled } from './tracing-enabled.ts';

if (tracingEnabled()) await import('./start-tracing.ts');

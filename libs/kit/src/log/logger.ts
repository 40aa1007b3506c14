import { pino, type Logger } from 'pino';
import { errorFields } from './error-fields.ts';
import { CENSOR, REDACTED_PATHS, redactNested } from './redaction.ts';
import { currentRequestId } from './request-id.ts';
import { activeSpanIds } from '../telemetry/trace-bridge.ts';

export type { Logger } from 'pino';

export type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * A pino logger writing JSON lines on stdout: `level` (its name), `time` (ISO 8601), `service`,
 * `requestId` when the line is written while serving a request (request-id.ts), `traceId` and
 * `spanId` when it is written inside a span (tracing on: libs/kit/src/telemetry), the fields, `msg`.
 * Secret fields are redacted and errors under `err` are scrubbed (redaction.ts).
 *
 * @example
 * const log = createLogger('bpm-svc', 'info');
 * log.info({ port: 50052 }, 'listening');
 * log.error({ err: error, refId }, 'unexpected failure');
 */
export function createLogger(service: string, level: Level | 'silent'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }), log: redactNested },
    redact: { paths: [...REDACTED_PATHS], censor: CENSOR },
    serializers: { err: errorFields },
    mixin: () => {
      const requestId = currentRequestId();
      const span = activeSpanIds();
      if (span === undefined) return requestId === undefined ? {} : { requestId };
      return requestId === undefined ? { ...span } : { requestId, ...span };
    },
  });
}

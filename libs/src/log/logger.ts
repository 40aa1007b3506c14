import { pino, type Logger } from 'pino';
import { errorFields } from './error-fields.ts';
import { CENSOR, REDACTED_PATHS, redactNested } from './redaction.ts';
import { currentRequestId } from './request-id.ts';

export type { Logger } from 'pino';

export type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * Lines are buffered and written by the 4 KiB, at the latest FLUSH_MS after they were logged, and
 * whatever is left when the process exits is written then, synchronously: one write per access line
 * was a system call per request, and a wake-up of whatever reads stdout. Writes stay synchronous
 * (pino's asynchronous mode could leave its last write unfinished at exit). A process killed
 * outright (SIGKILL) loses at most its last FLUSH_MS of lines (docs/decisions.md "Logs").
 */
const FLUSH_MS = 100;
let stdout: ReturnType<typeof pino.destination> | undefined;

/** The process's one stdout destination, flushed when the process exits. */
function stdoutDestination(): ReturnType<typeof pino.destination> {
  if (!stdout) {
    const destination = pino.destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: FLUSH_MS });
    process.on('exit', () => destination.flushSync());
    stdout = destination;
  }
  return stdout;
}

/**
 * A pino logger writing JSON lines on stdout: `level` (its name), `time` (ISO 8601), `service`,
 * `requestId` when the line is written while serving a request (request-id.ts), the fields, `msg`.
 * Secret fields are redacted and errors under `err` are scrubbed (redaction.ts).
 *
 * @example
 * const log = createLogger('bpm-svc', 'info');
 * log.info({ port: 50052 }, 'listening');
 * log.error({ err: error, refId }, 'unexpected failure');
 */
export function createLogger(service: string, level: Level | 'silent'): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: redactNested },
      redact: { paths: [...REDACTED_PATHS], censor: CENSOR },
      serializers: { err: errorFields },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { requestId };
      },
    },
    stdoutDestination(),
  );
}

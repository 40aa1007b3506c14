/**
 * A JSON-lines logger on stderr: one object per line with time, level, service and message, so a
 * cluster's log collector can parse it.
 *
 * @example
 * const log = createLogger('bpm', 'info');
 * log.info('listening', { address: '0.0.0.0:50052' });
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(service: string, level: Level): Logger {
  const write = (at: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: at, service, message, ...fields })}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** The name, message and stack of an error for a log line (never for a client). */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { error: error.name, detail: error.message, stack: error.stack };
  return { error: String(error) };
}

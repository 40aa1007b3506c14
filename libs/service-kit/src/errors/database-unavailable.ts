/** Socket errors of a database that is down, restarting or unreachable. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** What node-postgres says when a connection dies midway or cannot be had from the pool in time. */
const DRIVER_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * Whether an error (MikroORM's DriverException copies the driver's `code`) means the database
 * cannot be reached right now, rather than that the statement was wrong: a refused or broken
 * connection, SQLSTATE class 08 (connection exception), or 57P01-57P03 (the server shutting down,
 * crashed or starting). Such a request is answered 503 SVC-SYS-5002, like any backing service that
 * is unavailable (docs/interface.md#errors), not 5001.
 *
 * @example
 * isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) // true
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return true;
  }
  return DRIVER_MESSAGES.test(error.message);
}

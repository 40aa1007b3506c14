import type { Server } from 'node:http';

/**
 * How long a process finishes its in-flight work after SIGTERM before it cuts what is left and
 * exits: below the deployment's terminationGracePeriodSeconds (30 s), which then SIGKILLs.
 */
export const DRAIN_BOUND_MS = 20_000;

/** How often idle keep-alive connections are closed while draining. */
const IDLE_SWEEP_MS = 100;

/**
 * Drains an HTTP server: it stops accepting connections, answers what is in flight, and closes each
 * connection as soon as it is idle; a request that still arrives on an open connection is served
 * with `Connection: close`. Past `boundMs` every connection left is closed. Resolves true when all
 * finished in time, false when some were cut.
 *
 * @example
 * process.on('SIGTERM', () => drainHttpServer(server).finally(() => process.exit(0)));
 */
export function drainHttpServer(server: Server, boundMs = DRAIN_BOUND_MS): Promise<boolean> {
  server.prependListener('request', (_req, res) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
  });
  return new Promise((resolve) => {
    // keep-alive connections whose answer went out while draining become idle: close them, so that
    // clients open a new connection (to another replica) and nothing keeps this process alive
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const bound = setTimeout(() => {
      clearInterval(sweep);
      server.closeAllConnections();
      resolve(false);
    }, boundMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(bound);
      resolve(true);
    });
    server.closeIdleConnections();
  });
}

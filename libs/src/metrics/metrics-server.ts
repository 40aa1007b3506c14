import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * A plain HTTP server answering `GET /metrics` with the registry in Prometheus' text format, and
 * 404 to anything else. Port 0 takes any free port; the promise gives the one bound.
 *
 * @example
 * const metrics = await serveMetrics(registry, 9102);
 * metrics.port; await metrics.close();
 */
export async function serveMetrics(registry: Registry, port: number, host = '0.0.0.0'): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

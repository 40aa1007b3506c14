import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * A plain HTTP server answering `GET /metrics` with the registry in Prometheus' text format and,
 * given `serving`, `GET /health` with the process's overall health (200 SERVING, 503 NOT_SERVING:
 * the kubelet's probe where the gRPC port asks for client certificates, deploy/README.md); 404 to
 * anything else. It binds `host` (INTERNAL_LISTEN_HOST: loopback unless the deployment says
 * otherwise, since the port is private). Port 0 takes any free port; the promise gives the one bound.
 *
 * @example
 * const metrics = await serveMetrics(registry, 9102, { host: '127.0.0.1', serving: () => !stopping });
 * metrics.port; await metrics.close();
 */
export async function serveMetrics(
  registry: Registry,
  port: number,
  options: { host: string; serving?: () => boolean },
): Promise<{ port: number; close(): Promise<void> }> {
  const { host, serving } = options;
  const server: Server = createServer((req, res) => {
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (serving && read && req.url === '/health') {
      const up = serving();
      res
        .writeHead(up ? 200 : 503, { 'content-type': 'application/json' })
        .end(req.method === 'HEAD' ? undefined : JSON.stringify({ status: up ? 'SERVING' : 'NOT_SERVING' }));
      return;
    }
    if (req.url !== '/metrics' || !read) {
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

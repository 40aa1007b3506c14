import type { Request, RequestHandler } from 'express';
import { UNMATCHED_ROUTE } from '@platform/kit/metrics/http.metrics.ts';
import type { GatewayMetrics } from '../metrics/gateway.metrics.ts';

/**
 * Times every request of the public port once its response has ended (or its client gone), by
 * method, the matched route's template and status. A request no route took (404, or refused by a
 * filter before routing: 403, 401, 429) has the route UNMATCHED_ROUTE, never its path.
 *
 * @example
 * app.use(requestMetrics(metrics));
 */
export function requestMetrics(metrics: GatewayMetrics): RequestHandler {
  return (req, res, next) => {
    const start = performance.now();
    res.once('close', () => {
      // every router is mounted at the root, so the route's own path is the whole template
      const route = (req as Request).route?.path;
      metrics.http.observe(req.method, typeof route === 'string' ? route : UNMATCHED_ROUTE, res.statusCode, (performance.now() - start) / 1000);
    });
    next();
  };
}

import { ServerInterceptingCall, type ServerInterceptor } from '@grpc/grpc-js';
import type { GrpcLatency } from '@platform/kit/metrics/grpc.metrics.ts';

/**
 * A grpc-js server interceptor timing every call, from its arrival to its status, by method and
 * status code (health checks and reflection included).
 *
 * @example
 * new Server({ interceptors: [timeServerCalls(new GrpcLatency(registry, 'server'))] });
 */
export function timeServerCalls(latency: GrpcLatency): ServerInterceptor {
  return (descriptor, call) => {
    const start = performance.now();
    return new ServerInterceptingCall(call, {
      sendStatus(status, next) {
        latency.observe(descriptor.path, status.code, (performance.now() - start) / 1000);
        next(status);
      },
    });
  };
}

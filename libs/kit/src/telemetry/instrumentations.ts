import type { IncomingMessage } from 'node:http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

/** Probes and scrapes: every few seconds from every replica, and no one's request. */
const UNTRACED_PATHS = new Set(['/metrics', '/health', '/actuator/health', '/api/health']);

function isProbe(request: IncomingMessage): boolean {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return UNTRACED_PATHS.has(query < 0 ? url : url.slice(0, query));
}

/**
 * The instrumentations of a traced process: node:http (the gateway's requests, its relay of file
 * bytes to dms-svc, dms-svc's file server), express (route names on the gateway's spans; only the
 * request handlers and routers, not each of the filter chain's middlewares), grpc-js (every call,
 * client and server), pg and ioredis (each query and command of a traced request).
 *
 * pg and ioredis make spans only inside a traced request (`requireParentSpan`): the outbox and
 * webhook pollers would otherwise send a root span per poll. pg records statements, never their
 * parameters (`enhancedDatabaseReporting` stays off: they hold password hashes and tokens).
 *
 * @example
 * new NodeSDK({ instrumentations: platformInstrumentations() }).start();
 */
export function platformInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({ ignoreIncomingRequestHook: isProbe }),
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    new GrpcInstrumentation(),
    new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    new IORedisInstrumentation({ requireParentSpan: true }),
  ];
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header that carries a request's id from the client to the gateway and to dms-svc's file server (a gRPC call carries it in its CallInfo). */
export const REQUEST_ID_HEADER = 'x-request-id';

// What a client may choose (docs/adr/0044-logs-are-json-lines-with-an-access.md): it ends up in every log line and header
// about the request, so nothing that could break a JSON line, a header or a log search.
const WELL_FORMED = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The id of a request: the one it came with when well-formed, else a new UUID.
 *
 * @example
 * requestIdFrom('checkout-42') // 'checkout-42'
 * requestIdFrom('a b')         // a fresh UUID
 */
export function requestIdFrom(given: unknown): string {
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
}

const current = new AsyncLocalStorage<string>();

/**
 * Runs `work` as part of the request `requestId`: every log line written from it, and from what it
 * awaits, carries the id (the logger's mixin reads it back with `currentRequestId`).
 *
 * @example
 * withRequestId(requestIdFrom(req.headers[REQUEST_ID_HEADER]), () => handle(req, res));
 */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return current.run(requestId, work);
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return current.getStore();
}

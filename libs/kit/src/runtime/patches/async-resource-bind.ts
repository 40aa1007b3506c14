import { AsyncResource } from 'node:async_hooks';
import { deprecate } from 'node:util';

/**
 * Makes `AsyncResource.prototype.bind` give every bound function the same `asyncResource` getter
 * and setter, so that what a bound function reaches is garbage for the young generation's collector
 * as soon as the function is.
 *
 * Node 24's bind defines the deprecated `asyncResource` property (DEP0172) on each bound function
 * with a getter and a setter made for that call. An accessor property is part of the object's
 * shape: each new pair gives the function a V8 map of its own, reachable from the shared parent map
 * through a weak transition (the likely path: a scavenge keeps what weak references hold, as it keeps
 * a WeakRef's target). So every bound function, and all it reaches, survives every scavenge until a
 * mark-compact.
 * node:http2's `ClientHttp2Session.request()` binds one function per request, over the stream, its
 * headers and options; with it every gRPC call the process made (grpc-js's listeners hold the
 * whole call) was copied twice and promoted. Measured at 1,000 requests/s on a bare node:http2 client:
 * scavenges of 7 ms and six mark-compacts in 15 s, against 0.3 ms and none with this bind
 * (bench/README.md, "Garbage collection").
 *
 * The bound function behaves as Node's: it runs `fn` in the resource's scope with the caller's
 * `this` (or `thisArg`), returns what `fn` returns, has `fn`'s length, and its `asyncResource`
 * reads and writes the resource with Node's deprecation warning. Calling this again does nothing.
 */
export function shareBoundResourceAccessor(): void {
  AsyncResource.prototype.bind = bind as AsyncResource['bind'];
}

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

/** Node's own bind (its types omit `thisArg`), for what it refuses. */
const nodeBind = AsyncResource.prototype.bind as (this: AsyncResource, fn: unknown, thisArg?: unknown) => AnyFunction;

/** Where a bound function keeps its resource, read by the one getter below. */
const RESOURCE = Symbol('asyncResource');

interface Bound {
  [RESOURCE]: AsyncResource;
}

const WARNING = 'The asyncResource property on bound functions is deprecated';
const accessor = {
  configurable: true,
  enumerable: true,
  get: deprecate(
    function (this: Bound) {
      return this[RESOURCE];
    },
    WARNING,
    'DEP0172',
  ),
  set: deprecate(
    function (this: Bound, value: AsyncResource) {
      this[RESOURCE] = value;
    },
    WARNING,
    'DEP0172',
  ),
};

function bind(this: AsyncResource, fn: AnyFunction, thisArg?: unknown): AnyFunction {
  // Node's own bind throws its own error for a non-function
  if (typeof fn !== 'function') return nodeBind.call(this, fn, thisArg);
  const resource = this;
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]) {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : resource.runInAsyncScope.bind(resource, fn, thisArg);
  Object.defineProperties(bound, {
    length: { configurable: true, enumerable: false, value: fn.length, writable: false },
    asyncResource: accessor,
  });
  (bound as unknown as Bound)[RESOURCE] = resource;
  return bound;
}

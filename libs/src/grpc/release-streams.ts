import { subscribe } from 'node:diagnostics_channel';
import type { Http2Stream } from 'node:http2';

/**
 * Lets a finished HTTP/2 stream's listeners go, client or server side, so that a gRPC call is
 * garbage as soon as it has answered.
 *
 * node:http2 keeps a stream object reachable from its native handle until a full collection: the
 * handle is a wrapper object that node gives a property (its owner), and V8's young-generation
 * collector keeps such wrappers, and all they reach, through every scavenge. grpc-js listens on each
 * call's stream with closures over the call, so every unary call (its listeners, metadata, message,
 * the caller's callback, the header strings node received) was copied by two scavenges and
 * promoted. In the gateway that was 18 KB per request and scavenges of 10-12 ms twice a second at
 * 1,000 requests/s; in a service, an old generation that grew by about 100 MB between mark-compacts
 * whose pauses, 35-60 ms, were mostly spent finalizing the dead external header strings. Those
 * pauses were the latency tail (bench/README.md, "Garbage collection").
 *
 * Once a stream has emitted 'close' and grpc-js has settled the call (it does so on the next tick),
 * nothing listens for more: the stream is destroyed and emits nothing else. Its listeners are then
 * removed, and an 'error' listener that reaches nothing is left in case one still comes. Only the
 * stream object itself (about 2 KB) then outlives a scavenge.
 *
 * 'http2.client.stream.close' and 'http2.server.stream.close' are documented built-in diagnostics
 * channels of node:http2, published for every stream of the process before its 'close' event,
 * whoever opened it. Subscribing twice is harmless: the second call does nothing.
 */
export function releaseClosedHttp2Streams(): void {
  if (subscribed) return;
  subscribed = true;
  subscribe('http2.client.stream.close', releaseWhenClosed);
  subscribe('http2.server.stream.close', releaseWhenClosed);
}

let subscribed = false;

function releaseWhenClosed(message: unknown): void {
  (message as { stream: Http2Stream }).stream.once('close', releaseSoon);
}

/** A stream's 'close' listener (`this` is the stream): one function for all, no closure per call. */
function releaseSoon(this: Http2Stream): void {
  setImmediate(release, this);
}

function release(stream: Http2Stream): void {
  stream.removeAllListeners();
  stream.on('error', ignore);
}

function ignore(): void {}

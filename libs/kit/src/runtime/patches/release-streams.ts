import { subscribe } from 'node:diagnostics_channel';
import type { Http2Stream } from 'node:http2';

/**
 * Lets a finished HTTP/2 stream's listeners go, client or server side, so that a gRPC call is
 * garbage as soon as it has answered.
 *
 * Finished streams can stay reachable until a full collection: on the client side through the
 * function node:http2 binds per request (async-resource-bind.ts beside this file removes that), on the server
 * side through a path not found. grpc-js listens on each call's stream with closures over the call,
 * so a stream kept alive keeps every unary call (its listeners, metadata, message, the caller's
 * callback, the header strings node received): copied by two scavenges and promoted. In a service
 * that was an old generation growing by about 100 MB between mark-compacts whose pauses, 35-60 ms,
 * were mostly spent finalizing the dead external header strings: the latency tail (bench/README.md,
 * "Garbage collection").
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

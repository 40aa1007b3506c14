import {
  Client,
  credentials,
  type Metadata,
  type status,
  type Channel,
  type ClientUnaryCall,
  type Deadline,
  type ServiceError,
  type StatusObject,
} from '@grpc/grpc-js';
import type { UnaryMethod } from './unary-call.ts';

/** One Client per channel, made on its first traced call: it adds no connection (`channelOverride`). */
const clients = new WeakMap<Channel, Client>();

function clientOf(channel: Channel): Client {
  let client = clients.get(channel);
  if (!client) {
    // the credentials are the channel's own; these are never used with channelOverride
    client = new Client(channel.getTarget(), credentials.createInsecure(), { channelOverride: channel });
    clients.set(channel, client);
  }
  return client;
}

/**
 * unary-call.ts's call, made through grpc-js's `Client.makeUnaryRequest` on the same channel: the
 * path the gRPC instrumentation wraps, so that with tracing on each call has its client span and
 * carries the trace context in its metadata (`traceparent`). The gateway takes it only while
 * tracing is on; it costs the interceptor layer unary-call.ts avoids. Same answer, same errors,
 * `ended` and `headers` as unaryCall.
 *
 * @example
 * const call = tracingOn() ? clientUnaryCall : unaryCall;
 */
export function clientUnaryCall<Req, Res>(
  channel: Channel,
  method: UnaryMethod<Req, Res>,
  request: Req,
  metadata: Metadata,
  deadline: Deadline,
  ended?: (code: status) => void,
  headers?: (metadata: Metadata) => void,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const call: ClientUnaryCall = clientOf(channel).makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      request,
      metadata,
      { deadline },
      (error: ServiceError | null, response?: Res) => {
        if (error) reject(error);
        else resolve(response as Res);
      },
    );
    if (headers) call.on('metadata', headers);
    if (ended) call.on('status', (end: StatusObject) => ended(end.code));
  });
}

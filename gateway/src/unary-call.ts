import { Metadata, status, type ChannelInterface, type Deadline, type MethodDefinition, type ServiceError, type StatusObject } from '@grpc/grpc-js';

/** What a unary call needs of its method: a service definition's entry has it. */
export type UnaryMethod<Req, Res> = Pick<MethodDefinition<Req, Res>, 'path' | 'requestSerialize' | 'responseDeserialize'>;

/**
 * One unary call on a channel, through the channel's public `createCall` (the `Channel` interface
 * every channel implements), as grpc-js's `Client.makeUnaryRequest` makes it below its interceptor
 * layer. The gateway has no interceptors, and that layer cost about 12 µs of CPU per call, a sixth
 * of a bare call (an intercepting-call pair with their listener wrappers, an EventEmitter per call,
 * a stack trace captured for every call in case it fails; bench/README.md "The gRPC client"). The
 * channel below is the same: its retry policy, deadline and reconnection apply unchanged.
 *
 * Resolves with the one response; rejects with a ServiceError (`code`, `details`, `metadata`) as the
 * Client would: the call's status when not OK, INTERNAL for a request that does not serialise or a
 * response that does not parse, UNIMPLEMENTED for an OK without a response. One
 * response is read (`startRead` once, as the Client does).
 * `ended` hears the status code first (the gateway's latency metric); `headers`, the response
 * metadata the service sent before its answer.
 */
export function unaryCall<Req, Res>(
  channel: ChannelInterface,
  method: UnaryMethod<Req, Res>,
  request: Req,
  metadata: Metadata,
  deadline: Deadline,
  ended?: (code: status) => void,
  headers?: (metadata: Metadata) => void,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const call = channel.createCall(method.path, deadline, undefined, null, undefined);
    let received = false;
    let response: Res | undefined;
    let failure: StatusObject | undefined;
    const fail = (code: status, details: string) => {
      failure ??= { code, details, metadata: new Metadata() };
      call.cancelWithStatus(code, details);
    };
    call.start(metadata, {
      onReceiveMetadata(metadata: Metadata) {
        headers?.(metadata);
      },
      onReceiveMessage(message: Buffer) {
        received = true;
        try {
          response = method.responseDeserialize(message);
        } catch (error) {
          fail(status.INTERNAL, `Response message parsing error: ${messageOf(error)}`);
        }
      },
      onReceiveStatus(end) {
        const outcome = failure ?? (end.code === status.OK && !received ? { ...end, code: status.UNIMPLEMENTED, details: 'No message received' } : end);
        ended?.(outcome.code);
        if (outcome.code === status.OK) resolve(response as Res);
        else reject(serviceError(outcome));
      },
    });
    call.startRead();
    let bytes: Buffer;
    try {
      bytes = method.requestSerialize(request);
    } catch (error) {
      return fail(status.INTERNAL, `Request message serialization failure: ${messageOf(error)}`);
    }
    call.sendMessageWithContext({}, bytes);
    call.halfClose();
  });
}

/** The error the Client gives for a status: an Error with the status's `code`, `details` and `metadata`. */
function serviceError(ended: StatusObject): ServiceError {
  return Object.assign(new Error(`${ended.code} ${status[ended.code]}: ${ended.details}`), ended);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import { BinaryReader, BinaryWriter } from '@bufbuild/protobuf/wire';
import { Channel, Metadata, type status } from '@grpc/grpc-js';
import type { GatewayConfig } from './config.ts';
import type { ServiceName } from '@platform/kit/resource/resource.ts';
import { channelCredentials } from '@platform/kit/grpc/credentials.ts';
import type { GrpcLatency } from '@platform/kit/metrics/grpc.metrics.ts';
import { installRuntimePatches } from '@platform/kit/runtime/patches/index.ts';
import { retryServiceConfig } from './retry-policy.ts';
import { tracingOn } from '@platform/kit/telemetry/trace-bridge.ts';
import { clientUnaryCall } from './client-unary-call.ts';
import { unaryCall, type UnaryMethod } from './unary-call.ts';

/** grpc.health.v1 Health/Check: the service name asked (field 1), the serving status answered (field 1). */
const HEALTH_CHECK: UnaryMethod<string, number> = {
  path: '/grpc.health.v1.Health/Check',
  requestSerialize: (service) => Buffer.from(new BinaryWriter().uint32(10).string(service).finish()),
  responseDeserialize: (bytes) => {
    const reader = new BinaryReader(bytes);
    let status = 0;
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag >>> 3 === 1) status = reader.int32();
      else reader.skip(tag & 7);
    }
    return status;
  },
};

/**
 * One long-lived gRPC channel per backend service, shared by every route; each call carries a
 * deadline. A channel reconnects by itself when its service comes back; while it is down a call
 * fails at once with UNAVAILABLE (503 SVC-SYS-5002), and read-only calls are retried
 * (retry-policy.ts).
 *
 * @example
 * const branches = await backends.call('bpm', BranchServiceService.listBranchesByPartner, { businessPartnerId: 1 }, metadata);
 */
export class Backends {
  readonly #channels: Record<ServiceName, Channel>;
  readonly #deadlineMs: number;
  readonly #latency: GrpcLatency | undefined;

  /** `latency` times every call() by method and status code (not the health checks). */
  constructor(config: GatewayConfig, latency?: GrpcLatency) {
    this.#latency = latency;
    // a call's objects are garbage once it has answered, rather than outliving two scavenges
    installRuntimePatches();
    // channelz (grpc-js's introspection registry) is off, as on the services' servers: nothing reads
    // it, and it would count and trace every call.
    const options = {
      'grpc.keepalive_time_ms': 30_000,
      // a peer that went away without closing (its host lost) is noticed 5 s after a ping
      'grpc.keepalive_timeout_ms': 5_000,
      'grpc.max_receive_message_length': 16 * 1024 * 1024,
      'grpc.enable_channelz': 0,
      // a restarted service is found again within a second: grpc-js's own backoff (1 s growing to
      // 120 s) would leave a service that was down a few minutes unused for up to two more
      'grpc.initial_reconnect_backoff_ms': 250,
      'grpc.max_reconnect_backoff_ms': 1_000,
      'grpc.enable_retries': 1,
      'grpc.service_config': retryServiceConfig(),
    };
    // mutual TLS when GRPC_TLS_* is set (libs/kit/src/grpc/credentials.ts), plaintext otherwise
    const channel = channelCredentials(config.grpcTls);
    this.#channels = {
      core: new Channel(config.grpc.core, channel, options),
      bpm: new Channel(config.grpc.bpm, channel, options),
      dms: new Channel(config.grpc.dms, channel, options),
    };
    this.#deadlineMs = config.grpc.deadlineMs;
  }

  /**
   * One unary call of `method` (an entry of a generated service definition) on `service`'s
   * channel: the request is checked against the method's request type, and the answer has its
   * response type. `headers` hears the response metadata (a replayed create's mark). `deadlineMs`
   * shortens the call's deadline (the global search's time budget); GRPC_DEADLINE_MS otherwise.
   */
  call<Req, Res>(
    service: ServiceName,
    method: UnaryMethod<Req, Res>,
    request: NoInfer<Req>,
    metadata: Metadata,
    headers?: (metadata: Metadata) => void,
    deadlineMs: number = this.#deadlineMs,
  ): Promise<Res> {
    const latency = this.#latency;
    const start = performance.now();
    const ended = latency && ((code: status) => latency.observe(method.path, code, (performance.now() - start) / 1000));
    // with tracing on, through grpc-js's Client, which the gRPC instrumentation wraps (client-unary-call.ts)
    const call = tracingOn() ? clientUnaryCall : unaryCall;
    return call(this.#channels[service], method, request, metadata, Date.now() + Math.min(deadlineMs, this.#deadlineMs), ended, headers);
  }

  /** grpc.health.v1 Check of a backend: true when SERVING (status 1). */
  health(service: ServiceName, name = '', timeoutMs = 2_000): Promise<boolean> {
    return unaryCall(this.#channels[service], HEALTH_CHECK, name, new Metadata(), Date.now() + timeoutMs).then(
      (status) => status === 1,
      () => false,
    );
  }

  close(): void {
    for (const channel of Object.values(this.#channels)) channel.close();
  }
}

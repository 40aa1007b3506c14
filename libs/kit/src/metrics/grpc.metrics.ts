import { status as Status } from '@grpc/grpc-js';
import { Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS } from './registry.ts';

type Child = ReturnType<Histogram<string>['labels']>;

const CODE_NAMES: string[] = [];
for (const [name, code] of Object.entries(Status)) if (typeof code === 'number') CODE_NAMES[code] = name;

/**
 * gRPC call latency by service, method and status code, on the server side
 * (`grpc_server_handling_seconds`) or the client side (`grpc_client_handling_seconds`). Each
 * label set's child is made once and kept, so a call observes without building label objects
 * (prom-client still checks and hashes them on each observe).
 *
 * @example
 * const latency = new GrpcLatency(registry, 'server');
 * latency.observe('/platform.bpm.v1.BranchService/GetBranch', status.OK, 0.004);
 */
export class GrpcLatency {
  readonly #histogram: Histogram<'grpc_service' | 'grpc_method' | 'grpc_code'>;
  /** method path → children by status code */
  readonly #children = new Map<string, Child[]>();

  constructor(registry: Registry, side: 'server' | 'client') {
    this.#histogram = new Histogram({
      name: `grpc_${side}_handling_seconds`,
      help:
        side === 'server'
          ? 'Time from a unary call arriving to its status being sent, by method and code'
          : 'Time from a unary call being sent to its status arriving, by method and code',
      labelNames: ['grpc_service', 'grpc_method', 'grpc_code'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  /** `path` is the method's `/package.Service/Method`. */
  observe(path: string, code: number, seconds: number): void {
    let byCode = this.#children.get(path);
    if (!byCode) {
      byCode = [];
      this.#children.set(path, byCode);
    }
    let child = byCode[code];
    if (!child) {
      const slash = path.lastIndexOf('/');
      child = this.#histogram.labels({ grpc_service: path.slice(1, slash), grpc_method: path.slice(slash + 1), grpc_code: CODE_NAMES[code] ?? String(code) });
      byCode[code] = child;
    }
    child.observe(seconds);
  }
}

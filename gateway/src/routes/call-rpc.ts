import type { Metadata } from '@grpc/grpc-js';
import type { OperationRpc } from '@platform/contracts/operation.ts';
import type { Backends } from '../backends.ts';

/**
 * Calls a declared operation's RPC on its service, typed by the declaration's method.
 *
 * @example
 * const moved = await callRpc(backends, BPM_OPERATIONS.approveAccrual.rpc, { id }, metadata); // an Accrual
 */
export function callRpc<Req, Res>(
  backends: Backends,
  rpc: Pick<OperationRpc<Req, Res>, 'service' | 'method'>,
  request: NoInfer<Req>,
  metadata: Metadata,
): Promise<Res> {
  return backends.call(rpc.service, rpc.method, request, metadata);
}

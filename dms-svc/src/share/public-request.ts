import type { IncomingMessage } from 'node:http';
import { clientAddressOf } from '../http/client-address.ts';

/** Who a public request's audit row names: no user, and the client's address and agent as the gateway proved them. */
export function publicActor(req: IncomingMessage): { userCode: string; ipAddress: string | null; userAgent: string | null } {
  return { userCode: 'anonymous', ...clientAddressOf(req) };
}

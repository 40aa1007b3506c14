import type { Caller } from './caller.ts';
import type { Scope } from '../db/tenant-scope.ts';

/**
 * The scope of a call's work, from its caller as authenticated now: another service or the gateway
 * as itself, and a live super user, every tenant; any other user, the token's tenant while its live
 * access holds it, else none.
 */
export function callScope(caller: Caller): Scope {
  if (caller.kind === 'internal') return { platform: 'internal-call' };
  if (caller.access.superUser) return { platform: 'super-user' };
  const { claims, access } = caller;
  return { tenants: access.tenantHeld ? [claims.crProcessId] : [], user: claims.userCode };
}

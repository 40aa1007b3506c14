import { authorize, type CallContext } from '../auth/caller.ts';
import type { Handler } from './server.ts';

/**
 * A service method that needs `role` (docs/interface.md#identity): the caller's live access is read for that
 * role alone (auth/access.ts), and a caller who does not hold it in its tenant is refused with 403
 * SVC-SYS-1003 before `handler` runs. The role is named once, here, for both.
 *
 * @example
 * approveAccrual: requiring('accrual:approve', (request, ctx) => approve(request, ctx)),
 */
export function requiring<Req, Res>(role: string, handler: (request: Req, ctx: CallContext) => Promise<Res>): Handler<Req, Res> {
  const guarded = (request: Req, ctx: CallContext): Promise<Res> => {
    authorize(ctx, role);
    return handler(request, ctx);
  };
  return Object.assign(guarded, { roles: new Set([role]) as ReadonlySet<string> });
}

import { clientIp } from '../http/context.ts';
import { sendLoginRefusal, type LoginGuard, type LoginOutcome } from '../limits/login-guard.ts';
import type { Forward } from '../relay/forward.ts';
import { routerFor, type RouteGroup, type RouteTable } from './route.ts';

/**
 * The public share-link paths (docs/interface.md#share-links, docs/interface.md#authentication): no session, on the
 * public rate-limit tier (middleware/paths.ts), handed to dms-svc's HTTP server as the file bytes
 * are (the download through the relay, validate-password through the proxy; dms-svc judges the
 * link, the password and the signature). Registered
 * before the JSON body parser: dms-svc reads validate-password's small body itself. The proxy
 * hands on the client address this gateway judged (X-Forwarded-For, dms-file-bytes.ts), and the
 * gateway throttles wrong passwords per link and address with the login guard's mechanism: the sixth wrong one within 15 minutes is 429 with the rate-limit body (docs/interface.md#limits).
 */
export const DMS_SHARE_PUBLIC_ROUTES = {
  sharePublicDownload: { method: 'get', path: '/api/dms-share-link/public/:token' },
  sharePublicValidatePassword: { method: 'post', path: '/api/dms-share-link/public/:token/validate-password' },
} as const satisfies RouteTable;

/** validate-password's answer as the guard counts it: 403 a wrong password, 200 a right one, anything else nothing. */
function outcomeOf(status: number, finished: boolean): LoginOutcome {
  if (!finished) return 'other';
  if (status === 403) return 'wrong-password';
  return status === 200 ? 'success' : 'other';
}

export function dmsSharePublicRoutes(proxy: Forward, relay: Forward, guard: LoginGuard): RouteGroup {
  return routerFor(DMS_SHARE_PUBLIC_ROUTES, {
    sharePublicDownload: relay,
    sharePublicValidatePassword: async (req, res) => {
      const ip = clientIp(req);
      const attempt = await guard.admit((req.params.token ?? '').slice(0, 100), ip);
      if (attempt.refusal) return sendLoginRefusal(req, res, attempt.refusal);
      try {
        await proxy(req, res);
      } finally {
        await attempt.settle(outcomeOf(res.statusCode, res.writableFinished));
      }
    },
  });
}

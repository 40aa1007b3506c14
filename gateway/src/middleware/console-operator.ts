import type { Request } from 'express';
import { parseCookie } from 'cookie';
import { SESSION_COOKIE } from '@platform/kit/auth/request-token.ts';
import type { ConsoleCsrf } from '../console/csrf.ts';

/** The operator paths a super user may call from the console in place of the API key: sessions and the exception log. */
const OPERATOR_PATHS = /^\/api\/(session|logs)(\/|$)/;

/**
 * Whether an API-key request is instead the console's call of an operator path
 * (docs/adr/0085-the-console-operator-paths.md): one of those paths, the console's own request (`ConsoleCsrf`:
 * the signed token in cookie and header, from this origin's page) and a session cookie. Such a
 * request goes on as a JWT request: the JWT step verifies its token, and core-svc serves it only
 * while the token's user is a super user in the live state. The API key itself is never asked for
 * it, and a request that sends one is judged by the key alone.
 *
 * @example
 * isConsoleOperatorCall(req, csrf) // GET /api/session/active, X-CSRF-Token, same Origin, SVC_SESSION → true
 */
export function isConsoleOperatorCall(req: Request, csrf: ConsoleCsrf): boolean {
  if (!OPERATOR_PATHS.test(req.path)) return false;
  const cookies = req.headers.cookie;
  if (typeof cookies !== 'string' || !parseCookie(cookies)[SESSION_COOKIE]) return false;
  return csrf.isGenuine(req);
}

import { parseCookie, parseSetCookie } from 'cookie';

/** The session cookie's name (docs/interface.md#token-and-cookie). */
export const SESSION_COOKIE = 'SVC_SESSION';

/**
 * The user token of an HTTP request: the SVC_SESSION cookie first, then the bearer header
 * (docs/interface.md#token-and-cookie: "The JWT is read first from the cookie, then from the bearer header").
 * The gateway reads it so, and so does dms-svc's file server, which proves the caller itself.
 *
 * @example
 * tokenOf(req.headers.cookie, req.headers.authorization) // 'eyJ…' or undefined
 */
export function tokenOf(cookieHeader: string | undefined, authorization: string | undefined): string | undefined {
  if (cookieHeader) {
    const cookie = parseCookie(cookieHeader)[SESSION_COOKIE];
    if (cookie) return cookie;
  }
  if (authorization && /^Bearer /i.test(authorization)) return authorization.slice(7).trim() || undefined;
  return undefined;
}

/**
 * The SVC_SESSION cookie among a response's Set-Cookie lines (a login's, a switch-account's), as a
 * client keeps it: the whole line and the token it carries; undefined when none sets it.
 *
 * @example
 * sessionCookieOf(res.headers.getSetCookie()) // { line: 'SVC_SESSION=eyJ…; Path=/; HttpOnly…', token: 'eyJ…' }
 */
export function sessionCookieOf(setCookies: readonly string[]): { line: string; token: string } | undefined {
  for (const line of setCookies) {
    const cookie = parseSetCookie(line);
    if (cookie.name === SESSION_COOKIE) return { line, token: cookie.value ?? '' };
  }
  return undefined;
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { parseCookie, stringifySetCookie } from 'cookie';

/** The cookie the console's pages carry their CSRF token in, and the header its script echoes it in. */
export const CSRF_COOKIE = 'SVC_CONSOLE_CSRF';
export const CSRF_HEADER = 'x-csrf-token';

/** What the key derivation is for: a key derived for another purpose never signs these tokens. */
const PURPOSE = 'platform/console csrf/v1';

/**
 * The console's proof that a request comes from its own page on this origin
 * (docs/adr/0084-the-console-s-security-page-policy.md): a signed double-submit token (OWASP's
 * "signed double-submit cookie") plus the browser's own word on where the request comes from. The
 * page gets the token in a SameSite=Strict cookie its script may read, and echoes it in
 * X-CSRF-Token: another site can neither read the cookie nor set the header without a CORS
 * preflight the gateway refuses; the signature (HMAC under a key derived
 * from CONSOLE_CSRF_SECRET, a secret of its own: docs/adr/0139-the-gateway-s-own-credentials.md) means a cookie planted by a sibling subdomain is worthless. And the request's
 * `Origin` must be this origin, `Sec-Fetch-Site` (when sent) `same-origin`.
 *
 * @example
 * const csrf = new ConsoleCsrf(config.consoleCsrfSecret, config.cookieSecure);
 * res.append('Set-Cookie', csrf.cookie());    // on the console's page
 * csrf.isGenuine(req)                          // on the console's login and operator calls
 */
export class ConsoleCsrf {
  readonly #key: Buffer;
  readonly #secure: boolean;

  constructor(secret: string, secureCookie: boolean) {
    this.#key = createHmac('sha256', Buffer.from(secret, 'utf8')).update(PURPOSE).digest();
    this.#secure = secureCookie;
  }

  /** A Set-Cookie value with a fresh token: a session cookie (no Max-Age), SameSite=Strict, not HttpOnly. */
  cookie(): string {
    const nonce = randomBytes(18).toString('base64url');
    return stringifySetCookie({ name: CSRF_COOKIE, value: `${nonce}.${this.#sign(nonce)}`, sameSite: 'strict', secure: this.#secure, path: '/' });
  }

  /** Whether the request's cookie holds a token this gateway signed (a page keeps it rather than getting a new one). */
  hasValidCookie(req: Request): boolean {
    const cookie = cookieOf(req);
    return cookie !== undefined && this.#signed(cookie);
  }

  /** Whether the request carries one valid token in both cookie and header, and comes from this origin's page. */
  isGenuine(req: Request): boolean {
    if (!sameOrigin(req)) return false;
    const header = req.headers[CSRF_HEADER];
    if (typeof header !== 'string' || header.length > 200) return false;
    const cookie = cookieOf(req);
    return cookie !== undefined && equal(cookie, header) && this.#signed(header);
  }

  #signed(token: string): boolean {
    const [nonce, signature, ...rest] = token.split('.');
    if (!nonce || !signature || rest.length > 0) return false;
    return equal(signature, this.#sign(nonce));
  }

  #sign(nonce: string): string {
    return createHmac('sha256', this.#key).update(nonce).digest('base64url');
  }
}

/**
 * `Origin` names this origin (scheme and host as the gateway was reached; behind a trusted proxy its
 * X-Forwarded-Proto, per `trust proxy`), and `Sec-Fetch-Site`, when the browser sends it, says
 * `same-origin`. Without Origin, only a GET or HEAD that the browser itself marks same-origin: every
 * browser the console supports sends Origin on a POST, and a tool without a browser has the API key.
 */
function sameOrigin(req: Request): boolean {
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;
  const origin = req.headers.origin;
  // Chromium sends no Origin on a same-origin GET, but its Sec-Fetch-Site, which no script can set
  if (origin === undefined) return fetchSite === 'same-origin' && (req.method === 'GET' || req.method === 'HEAD');
  const host = req.headers.host;
  return typeof origin === 'string' && typeof host === 'string' && origin === `${req.protocol}://${host}`;
}

function cookieOf(req: Request): string | undefined {
  return typeof req.headers.cookie === 'string' ? parseCookie(req.headers.cookie)[CSRF_COOKIE] : undefined;
}

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

import { parseSetCookie } from 'cookie';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { OPERATION_CREDENTIALS } from './operation-credentials.ts';
import type { paths } from './schema.d.ts';

/** The header of the API key and the cookie of the session (docs/interface.md#authentication). */
export const API_KEY_HEADER = 'X-API-Key';
export const SESSION_COOKIE = 'SVC_SESSION';

export interface PlatformClientOptions {
  /** The gateway's origin, e.g. `http://127.0.0.1:8080` (the document's paths start with `/api`). */
  baseUrl: string;
  /** The core API key, sent as `X-API-Key` on the operations that ask for it (login, sessions, logs). */
  apiKey?: string;
  /** A session's JWT, sent as `Authorization: Bearer` on the operations that ask for a session. */
  token?: string;
  /** The fetch to call (globalThis.fetch by default), e.g. one that goes through a proxy or records. */
  fetch?: (request: Request) => Promise<Response>;
}

/** openapi-fetch's client over the document's paths, and the session it holds. */
export interface PlatformClient extends Client<paths> {
  /**
   * The JWT sent as bearer; set from the `SVC_SESSION` cookie that login and switch-account answer
   * with, cleared by the one logout clears, and writable.
   */
  token: string | undefined;
}

/** The session a response's Set-Cookie lines set: the token, '' when cleared, undefined when untouched. */
function sessionSet(response: Response): string | undefined {
  for (const line of response.headers.getSetCookie()) {
    const cookie = parseSetCookie(line);
    if (cookie.name !== SESSION_COOKIE) continue;
    return cookie.maxAge === 0 ? '' : (cookie.value ?? '');
  }
  return undefined;
}

/**
 * A typed client of the gateway: every path, parameter, body and answer of the API document, through
 * openapi-fetch. Each call carries the credential its operation asks for (the document's `security`,
 * libs/client/src/operation-credentials.ts): the API key, or the session token as bearer, and
 * nothing on public paths. A header the caller passes wins. A login's cookie becomes the token
 * (Node's fetch keeps no cookies; in a browser the cookie itself carries the session).
 *
 * @example
 * const client = createPlatformClient({ baseUrl: 'http://127.0.0.1:8080', apiKey });
 * await client.POST('/api/auth/login', { body: { userCode, password } });
 * const { data, error } = await client.GET('/api/branch/{key}', { params: { path: { key: 1 } } });
 */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), ...(options.fetch ? { fetch: options.fetch } : {}) }) as PlatformClient;
  client.token = options.token;
  const credentials: Middleware = {
    onRequest({ request, schemaPath }) {
      const credential = OPERATION_CREDENTIALS[`${request.method} ${schemaPath}`];
      if (credential === 'apiKey' && options.apiKey && !request.headers.has(API_KEY_HEADER)) request.headers.set(API_KEY_HEADER, options.apiKey);
      if (credential === 'session' && client.token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${client.token}`);
      return request;
    },
    onResponse({ response }) {
      const token = sessionSet(response);
      if (token !== undefined) client.token = token || undefined;
      return response;
    },
  };
  client.use(credentials);
  return client;
}

/**
 * The console's one way to the platform's API: same origin, the session cookie, JSON in and out,
 * `Accept-Language` the console's language (so error messages come in it), and an error answer
 * turned into an `ApiError` carrying the platform's own code and message (docs/interface.md#errors).
 */
import { currentLanguage } from './language.ts';

/** An error answer of the platform: its HTTP status, `error_code`, message (in the chosen language) and `refId` on a 5xx. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly refId: string | undefined;

  constructor(status: number, code: string | undefined, message: string, refId?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.refId = refId;
  }

  /** The status under the name Refine's hooks read (its HttpError). */
  get statusCode(): number {
    return this.status;
  }

  /** A version conflict: 409 SVC-SYS-4002 (stale `version`) or 412 (failed `If-Match`). */
  get isConflict(): boolean {
    return this.code === 'SVC-SYS-4002';
  }
}

/** Listeners told when an answer says the session is over (401 on a JWT path): the shell sends the user to the login page. */
const sessionEndedListeners = new Set<() => void>();
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

export interface ApiInit {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The cookie the gateway sets on the console's pages; echoed as CSRF_HEADER (docs/adr/0084-the-console-s-security-page-policy.md). */
export const CSRF_COOKIE = 'SVC_CONSOLE_CSRF';
export const CSRF_HEADER = 'X-CSRF-Token';

function csrfToken(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === CSRF_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** The headers every call carries: the language, and the console's CSRF token (the console's login and operator paths need it). */
export function baseHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage(), Accept: 'application/json' };
  const csrf = csrfToken();
  if (csrf) headers[CSRF_HEADER] = csrf;
  return headers;
}

/**
 * Calls `path` (`/api/...`) and answers its JSON body (undefined for a 204), or throws an ApiError.
 *
 * @example
 * const page = await api<PageResponse<Branch>>('/api/branch/list', { method: 'POST', body: { page: 0, size: 20, filter: { crProcessId } } });
 */
export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  const headers: Record<string, string> = { ...baseHeaders(), ...init.headers };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: 'same-origin',
    signal: init.signal,
  });
  if (response.ok) {
    if (response.status === 204 || response.status === 304) return undefined as T;
    return (await response.json()) as T;
  }
  throw await errorOf(response);
}

/** The ApiError of an error answer (any status), telling the shell when it means the session ended. */
export async function errorOf(response: Response): Promise<ApiError> {
  let body: { error_code?: string; message?: string; refId?: string } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not JSON (a proxy's page): the status alone
  }
  const error = new ApiError(response.status, body.error_code, body.message ?? response.statusText, body.refId);
  if (response.status === 401 && error.code === 'SVC-SYS-1001') for (const listener of sessionEndedListeners) listener();
  return error;
}

import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import type { SessionCheck } from '../auth/session-check.ts';
import type { UnverifiedClaims } from '../auth/token-claims.ts';
import { languageFromHeader, type Language } from '@platform/kit/i18n/messages.ts';
import { categoryOf, type PathCategory } from './path-category.ts';

/** What the filter chain learns of a request, kept in res.locals. */
export interface RequestState {
  /**
   * The path's category (docs/interface.md#path-categories), worked out once for the whole chain;
   * the API-key step makes a console operator call a JWT request (middleware/console-operator.ts).
   */
  category?: PathCategory;
  /**
   * The user token, on JWT paths, and the claims it states: decoded, not verified (the services
   * verify it; docs/adr/0138-an-edge-without-the-signing-secret.md). The claims may choose the
   * answer's language; the access line and an exception entry name their user only on an answer
   * that is not 401 (one a service gave after verifying, or given once core-svc found the token live).
   */
  token?: string;
  claims?: UnverifiedClaims;
  /** Whether the token's user and session are live, once asked (sessionIsLive). */
  live?: Promise<boolean>;
  /** The client address, once worked out (clientIp). */
  clientIp?: string;
}

/**
 * Whether the request's token verifies and is still live (its user and session), asked of core-svc at
 * most once per request; true off JWT paths. For the few answers the gateway makes without a
 * service (http/errors.ts, the upload's idle limit): every call a service serves checks them there.
 */
export function sessionIsLive(res: Response, sessions: SessionCheck): Promise<boolean> {
  const state = stateOf(res);
  // a personal access token has no claims here (middleware/jwt.ts): core resolves it as well
  if (!state.token) return Promise.resolve(true);
  state.live ??= sessions.isLive(state.token);
  return state.live;
}

export function stateOf(res: Response): RequestState {
  return res.locals as RequestState;
}

/** The request's path category: public, API key or JWT. */
export function categoryOfRequest(req: Request, res: Response): PathCategory {
  const state = stateOf(res);
  state.category ??= categoryOf(req.path);
  return state.category;
}

/** Accept-Language (first en or tr) wins, then the login's language in the token, then en (docs/interface.md#errors). */
export function languageOf(req: Request, res: Response): Language {
  return languageFromHeader(req.headers['accept-language']) ?? stateOf(res).claims?.lang ?? 'en';
}

/** The request's id (X-Request-Id), which the first handler gave it (http/access-log.ts). */
export function requestIdOf(req: IncomingMessage): string {
  return String(req.id);
}

/**
 * The client address: the socket's, or the one TRUST_PROXY hops back in X-Forwarded-For. Worked out
 * once per request (`req.ip` walks the forwarded addresses again on every read, and the IP filter,
 * the rate limiter and the call's metadata each ask): the address the IP filter judged is the one
 * every later step sees.
 */
export function clientIp(req: Request): string {
  const state = req.res ? stateOf(req.res) : undefined;
  if (state?.clientIp !== undefined) return state.clientIp;
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  if (state) state.clientIp = ip;
  return ip;
}

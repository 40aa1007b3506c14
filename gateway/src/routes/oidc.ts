import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { parseCookie, stringifySetCookie } from 'cookie';
import { OIDC_BINDING_COOKIE, OIDC_OPERATIONS } from '@platform/contracts/core/oidc.ts';
import { toMetadata } from '@platform/kit/grpc/metadata.ts';
import type { ServiceError } from '@grpc/grpc-js';
import { fromGrpcError } from '@platform/kit/errors/grpc-status.ts';
import { languageFromHeader } from '@platform/kit/i18n/messages.ts';
import { idParam } from '../http/params.ts';
import type { GatewayConfig } from '../config.ts';
import type { Backends } from '../backends.ts';
import { clientIp, requestIdOf } from '../http/context.ts';
import { callRpc } from './call-rpc.ts';
import { header, userMetadata } from './crud.ts';
import { sessionCookie } from './auth.ts';
import { routerFor, type RouteGroup } from './route.ts';

/** The routes of single sign-on, as declared (libs/contracts/src/core/oidc.ts). */
export const OIDC_ROUTES = OIDC_OPERATIONS;

const CALLBACK_PATH = '/api/auth/oidc/callback';
/** The binding cookie lives as long as core-svc keeps the sign-in it binds. */
const BINDING_MAX_AGE_SECONDS = 600;

function bindingCookie(config: GatewayConfig, value: string, maxAge: number): string {
  return stringifySetCookie({
    name: OIDC_BINDING_COOKIE,
    value,
    httpOnly: true,
    secure: config.cookieSecure,
    sameSite: 'lax',
    path: '/api/auth/oidc',
    maxAge,
  });
}

/** A browser's navigation (it asks for a page first), not a tool's call. */
function wantsPage(req: Request): boolean {
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}

/** This origin as the browser reached it (TRUST_PROXY decides whether X-Forwarded-Proto counts). */
function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/**
 * The browser's side of single sign-on (docs/interface.md#single-sign-on): the gateway routes the
 * redirects and keeps no secret of its own for them. The binding cookie is a random value (not
 * signed: core-svc keeps its hash beside the state), and every call to core-svc carries the
 * gateway's internal credential, which `internalCredential` gives.
 */
export function oidcRoutes(config: GatewayConfig, backends: Backends, internalCredential: () => string): RouteGroup {
  const internal = (req: Request) =>
    toMetadata({
      token: internalCredential(),
      lang: languageFromHeader(req.headers['accept-language']) ?? 'en',
      projectCode: header(req, 'x-project-code'),
      requestId: requestIdOf(req),
    });
  return routerFor(OIDC_ROUTES, {
    signInProviders: async (req, res, query) => {
      const listed = await callRpc(backends, OIDC_OPERATIONS.signInProviders.rpc, { accountNo: (query.accountNo ?? '').slice(0, 64) }, internal(req));
      res.setHeader('Cache-Control', 'no-store');
      res.json({ providers: listed.providers });
    },

    startSignIn: async (req, res, query) => {
      const binding = randomBytes(32).toString('base64url');
      const started = await callRpc(
        backends,
        OIDC_OPERATIONS.startSignIn.rpc,
        { providerId: idParam(req.params.id), redirectUri: `${originOf(req)}${CALLBACK_PATH}`, returnTo: query.returnTo ?? '', browserBinding: binding },
        internal(req),
      );
      res.setHeader('Set-Cookie', bindingCookie(config, binding, BINDING_MAX_AGE_SECONDS));
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, started.authorizationUrl);
    },

    finishSignIn: async (req, res) => {
      const binding = parseCookie(req.headers.cookie ?? '')[OIDC_BINDING_COOKIE] ?? '';
      const finished = await callRpc(
        backends,
        OIDC_OPERATIONS.finishSignIn.rpc,
        {
          callbackUrl: new URL(req.originalUrl, originOf(req)).href,
          browserBinding: binding,
          languageCode: languageFromHeader(req.headers['accept-language']) ?? 'en',
          ipAddress: clientIp(req),
          userAgent: header(req, 'user-agent') ?? '',
          projectCode: header(req, 'x-project-code'),
        },
        internal(req),
      ).catch((error: unknown) => {
        // a browser that navigated here is sent back to the login page, which says the sign-in failed;
        // other clients get the error body
        const code = fromGrpcError(error as ServiceError).code;
        if ((code === 'SVC-SYS-1002' || code === 'SVC-SYS-2001') && wantsPage(req)) return undefined;
        throw error;
      });
      if (!finished) {
        res.setHeader('Set-Cookie', bindingCookie(config, '', 0));
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(303, '/console/login?sso=failed');
        return;
      }
      const login = finished.login;
      if (!login) throw new Error('FinishSignIn answered no session');
      res.setHeader('Set-Cookie', [sessionCookie(config, login.token, login.expiresIn), bindingCookie(config, '', 0)]);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, finished.returnTo);
    },

    // ends the session as logout does; the body names the provider's logout, where it has one
    signOut: async (req, res) => {
      const out = await callRpc(backends, OIDC_OPERATIONS.signOut.rpc, { postLogoutRedirectUri: `${originOf(req)}/console/` }, userMetadata(req, res));
      res.setHeader('Set-Cookie', sessionCookie(config, '', 0));
      res.setHeader('Cache-Control', 'no-store');
      res.json({ redirectUrl: out.redirectUrl ?? null });
    },
  });
}

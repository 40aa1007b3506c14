import type { Metadata, ServiceError } from '@grpc/grpc-js';
import { fromGrpcError } from '@platform/kit/errors/grpc-status.ts';
import { sendLoginRefusal } from '../limits/login-attempt.ts';
import type { LoginGuard } from '../limits/login-guard.ts';
import { stringifySetCookie } from 'cookie';
import type { GatewayCallKey } from '@platform/kit/auth/gateway-call-key.ts';
import type { GatewayConfig } from '../config.ts';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import type { Request, Response } from 'express';
import type { ConsoleCsrf } from '../console/csrf.ts';
import { AUTH_OPERATIONS } from '@platform/contracts/core/auth.ts';
import type { LoginResponse, MeResponse } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { toMetadata } from '@platform/kit/grpc/metadata.ts';
import { languageFromHeader, isLanguage, type Language } from '@platform/kit/i18n/messages.ts';
import type { Backends } from '../backends.ts';
import { clientIp, requestIdOf } from '../http/context.ts';
import { asObject } from '../http/record-json.ts';
import { SESSION_COOKIE } from '@platform/kit/auth/request-token.ts';
import { header, userMetadata } from './crud.ts';
import { callRpc } from './call-rpc.ts';
import { routerFor, type RouteGroup } from './route.ts';
import { loginBody, sendChallenge } from './second-factor.ts';

const LOGIN_FIELDS = new Set(['userCode', 'password', 'languageCode', 'captchaToken', 'secondFactorCode']);

function stringField(body: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) {
    if (required) throw invalidField(name, 'field.required');
    return undefined;
  }
  if (typeof value !== 'string') throw invalidField(name, 'field.type', { type: 'string' });
  if (value.length > 1000) throw invalidField(name, 'field.tooLong', { max: '1000' });
  return value;
}

/** The SVC_SESSION cookie: HttpOnly, SameSite=Lax, Path=/, no Domain; Secure in production. */
export function sessionCookie(config: GatewayConfig, token: string, maxAge: number): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    httpOnly: true,
    secure: config.cookieSecure,
    sameSite: 'lax',
    path: '/',
    maxAge,
  });
}

function meBody(me: MeResponse) {
  return {
    success: me.success,
    userCode: me.userCode,
    superUser: me.superUser,
    userProcess: me.userProcess ?? null,
    accountNo: me.accountNo,
    crProcessId: me.crProcessId,
    roles: me.roles,
  };
}

/**
 * The metadata of the login's calls (the password step and the second factor's): the gateway's
 * internal credential, the caller's language, project code and request id. One place, so that how
 * the gateway proves itself to core-svc is stated once.
 */
export function loginMetadata(gatewayKey: GatewayCallKey): (req: Request, languageCode?: Language) => Metadata {
  return (req, languageCode) =>
    toMetadata({
      token: gatewayKey.credential,
      lang: languageFromHeader(req.headers['accept-language']) ?? languageCode ?? 'en',
      projectCode: header(req, 'x-project-code'),
      requestId: requestIdOf(req),
    });
}

/** The routes of the auth operations, as declared (libs/contracts/src/core/auth.ts). */
export const AUTH_ROUTES = AUTH_OPERATIONS;

/** POST /api/auth/login (API key) and the other /api/auth/* endpoints (JWT), docs/interface.md#auth. */
export function authRoutes(config: GatewayConfig, backends: Backends, gatewayKey: GatewayCallKey, loginGuard: LoginGuard, csrf: ConsoleCsrf): RouteGroup {
  const logIn = async (req: Request, res: Response): Promise<void> => {
    const body = asObject(req.body);
    for (const name of Object.keys(body)) if (!LOGIN_FIELDS.has(name)) throw invalidField(name, 'field.unknown');
    const userCode = stringField(body, 'userCode', true) ?? '';
    const password = stringField(body, 'password', true) ?? '';
    const languageCode = stringField(body, 'languageCode', true) ?? '';
    if (!isLanguage(languageCode)) throw invalidField('languageCode', 'field.enum', { values: 'en, tr' });
    const captchaToken = stringField(body, 'captchaToken', false);
    const secondFactorCode = stringField(body, 'secondFactorCode', false);
    if (secondFactorCode !== undefined && !/^\d{6}$/.test(secondFactorCode)) throw invalidField('secondFactorCode', 'field.pattern', { pattern: '6 digits' });
    const metadata = loginMetadata(gatewayKey)(req, languageCode);
    // docs/interface.md#limits: the sixth wrong password for one user from one address within 15 minutes is 429
    const ip = clientIp(req);
    const attempt = await loginGuard.admit(userCode, ip);
    if (attempt.refusal) return sendLoginRefusal(req, res, attempt.refusal);
    let login: LoginResponse;
    try {
      login = await callRpc(
        backends,
        AUTH_OPERATIONS.login.rpc,
        {
          userCode,
          password,
          languageCode,
          captchaToken,
          secondFactorCode,
          ipAddress: ip,
          userAgent: header(req, 'user-agent') ?? '',
          projectCode: header(req, 'x-project-code'),
        },
        metadata,
      );
    } catch (error) {
      await attempt.settle(fromGrpcError(error as ServiceError).code === 'SVC-SYS-1002' ? 'wrong-password' : 'other');
      throw error;
    }
    // the password was right, the login waits for its second factor: neither counted nor a success yet
    // (a success would clear the wrong codes counted: docs/adr/0127-a-second-factor-for-password-logins.md)
    if (login.secondFactor) {
      await attempt.settle('other');
      return sendChallenge(res, login.userCode, login.secondFactor);
    }
    await attempt.settle('success');
    res.setHeader('Set-Cookie', sessionCookie(config, login.token, login.expiresIn));
    res.setHeader('Cache-Control', 'no-store');
    res.json(loginBody(login));
  };
  return routerFor(AUTH_ROUTES, {
    login: logIn,

    // the console's page holds no API key; its CSRF proof stands in for it (docs/adr/0084-the-console-s-security-page-policy.md)
    consoleLogin: async (req, res) => {
      if (!csrf.isGenuine(req)) throw new DomainError('SVC-SYS-1004', 'apiKey.invalid');
      await logIn(req, res);
    },

    me: async (req, res) => {
      const me = await callRpc(backends, AUTH_OPERATIONS.me.rpc, {}, userMetadata(req, res));
      res.setHeader('Cache-Control', 'no-store');
      res.json(meBody(me));
    },

    // docs/interface.md#auth: a new cookie for the new account; the body is what me shows for it
    switchAccount: async (req, res) => {
      const body = asObject(req.body);
      for (const name of Object.keys(body)) if (name !== 'accountNo') throw invalidField(name, 'field.unknown');
      const accountNo = stringField(body, 'accountNo', true) ?? '';
      const switched = await callRpc(backends, AUTH_OPERATIONS.switchAccount.rpc, { accountNo }, userMetadata(req, res));
      res.setHeader('Set-Cookie', sessionCookie(config, switched.token, switched.expiresIn));
      res.setHeader('Cache-Control', 'no-store');
      res.json(switched.me ? meBody(switched.me) : {});
    },

    changePassword: async (req, res) => {
      const body = asObject(req.body);
      for (const name of Object.keys(body)) if (name !== 'currentPassword' && name !== 'newPassword') throw invalidField(name, 'field.unknown');
      const currentPassword = stringField(body, 'currentPassword', true) ?? '';
      const newPassword = stringField(body, 'newPassword', true) ?? '';
      await callRpc(backends, AUTH_OPERATIONS.changePassword.rpc, { currentPassword, newPassword }, userMetadata(req, res));
      res.status(204).end();
    },

    // ends the session the token is bound to, and clears the cookie (Max-Age=0)
    logout: async (req, res) => {
      await callRpc(backends, AUTH_OPERATIONS.logout.rpc, {}, userMetadata(req, res));
      res.setHeader('Set-Cookie', sessionCookie(config, '', 0));
      res.status(204).end();
    },
  });
}

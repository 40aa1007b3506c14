import { Router, type Response } from 'express';
import { stringifySetCookie } from 'cookie';
import type { TokenService } from '@platform/libs/auth/jwt.ts';
import type { Config } from '@platform/libs/config/config.ts';
import { invalidField } from '@platform/libs/errors/domain-error.ts';
import { AuthServiceService, type LoginResponse, type MeResponse } from '@platform/libs/gen/platform/core/v1/auth.ts';
import { toMetadata } from '@platform/libs/grpc/metadata.ts';
import { languageFromHeader, isLanguage } from '@platform/libs/i18n/messages.ts';
import type { Backends } from '../backends.ts';
import { clientIp } from '../http/context.ts';
import { asObject } from '../http/record-json.ts';
import { SESSION_COOKIE } from '../middleware/jwt.ts';
import { header, userMetadata } from './crud.ts';

const LOGIN_FIELDS = new Set(['userCode', 'password', 'languageCode', 'captchaToken']);

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
export function sessionCookie(config: Config, token: string, maxAge: number): string {
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
  };
}

/** POST /api/auth/login (API key) and GET /api/auth/me (JWT), platform-interface.md §4.3. */
export function authRoutes(config: Config, backends: Backends, tokens: TokenService): Router {
  const router = Router();

  router.post('/api/auth/login', async (req, res: Response) => {
    const body = asObject(req.body);
    for (const name of Object.keys(body)) if (!LOGIN_FIELDS.has(name)) throw invalidField(name, 'field.unknown');
    const userCode = stringField(body, 'userCode', true) ?? '';
    const password = stringField(body, 'password', true) ?? '';
    const languageCode = stringField(body, 'languageCode', true) ?? '';
    if (!isLanguage(languageCode)) throw invalidField('languageCode', 'field.enum', { values: 'en, tr' });
    const captchaToken = stringField(body, 'captchaToken', false);
    const metadata = toMetadata({
      token: tokens.internalToken('gateway'),
      lang: languageFromHeader(req.headers['accept-language']) ?? languageCode,
      projectCode: header(req, 'x-project-code'),
    });
    const login = await backends.call<LoginResponse>('core', AuthServiceService, 'login', {
      userCode,
      password,
      languageCode,
      captchaToken,
      ipAddress: clientIp(req),
      userAgent: header(req, 'user-agent') ?? '',
      projectCode: header(req, 'x-project-code'),
    }, metadata);
    res.setHeader('Set-Cookie', sessionCookie(config, login.token, login.expiresIn));
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      success: true,
      token: '',
      userCode: login.userCode,
      source: login.source,
      expiresAt: login.expiresAt,
      superUser: login.superUser,
      userProcess: login.userProcess ?? null,
    });
  });

  router.get('/api/auth/me', async (req, res) => {
    const me = await backends.call<MeResponse>('core', AuthServiceService, 'me', {}, userMetadata(req, res));
    res.setHeader('Cache-Control', 'no-store');
    res.json(meBody(me));
  });

  return router;
}

import type { Metadata, ServiceError } from '@grpc/grpc-js';
import type { Request, Response } from 'express';
import { fromGrpcError } from '@platform/kit/errors/grpc-status.ts';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import type { LoginResponse } from '@platform/kit/gen/platform/core/v1/auth.ts';
import type { SecondFactorChallenge } from '@platform/kit/gen/platform/core/v1/second_factor_challenge.ts';
import { SECOND_FACTOR_OPERATIONS } from '@platform/contracts/core/second-factor.ts';
import { challengeUserCode } from '@platform/contracts/core/second-factor-challenge.ts';
import type { Backends } from '../backends.ts';
import type { ConsoleCsrf } from '../console/csrf.ts';
import { clientIp } from '../http/context.ts';
import { idParam } from '../http/params.ts';
import { asObject } from '../http/record-json.ts';
import { sendLoginRefusal } from '../limits/login-attempt.ts';
import type { LoginGuard } from '../limits/login-guard.ts';
import { header, userMetadata } from './crud.ts';
import { callRpc } from './call-rpc.ts';
import { routerFor, type RouteGroup } from './route.ts';

/**
 * The password step's answer for a user with a second factor (docs/adr/0127-a-second-factor-for-password-logins.md):
 * the challenge, without a cookie. Called by the login route in place of the session's answer.
 */
export function sendChallenge(res: Response, userCode: string, challenge: SecondFactorChallenge): void {
  res.setHeader('Cache-Control', 'no-store');
  res.json({
    success: false,
    userCode,
    secondFactor: challenge.enrol ? 'enrol' : 'totp',
    challenge: challenge.challenge,
    expiresAt: challenge.expiresAt,
    ...(challenge.enrolment ? { enrolment: challenge.enrolment } : {}),
  });
}

/** The body of the login's answer, as the password step gives it (routes/auth.ts). */
export function loginBody(login: LoginResponse) {
  return {
    success: true,
    token: '',
    userCode: login.userCode,
    source: login.source,
    expiresAt: login.expiresAt,
    superUser: login.superUser,
    userProcess: login.userProcess ?? null,
  };
}

/** A string field of a body: absent (undefined), or a string of at most `max` characters; else 400 SVC-SYS-2001. */
function stringField(body: Record<string, unknown>, name: string, max: number): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidField(name, 'field.type', { type: 'string' });
  if (value.length > max) throw invalidField(name, 'field.tooLong', { max: String(max) });
  return value;
}

/** A body of exactly `names`, each a string. */
function onlyFields(body: Record<string, unknown>, names: readonly string[]): void {
  for (const name of Object.keys(body)) if (!names.includes(name)) throw invalidField(name, 'field.unknown');
}

const CODE = /^\d{6}$/;

/** The routes of the second factor's operations, as declared (libs/contracts/src/core/second-factor.ts). */
export const SECOND_FACTOR_ROUTES = SECOND_FACTOR_OPERATIONS;

/** `code` of a body: required, six digits, else 400 SVC-SYS-2001. */
function codeField(req: Request): string {
  const body = asObject(req.body);
  onlyFields(body, ['code']);
  const code = stringField(body, 'code', 1000);
  if (code === undefined) throw invalidField('code', 'field.required');
  if (!CODE.test(code)) throw invalidField('code', 'field.pattern', { pattern: '6 digits' });
  return code;
}

/**
 * The second factor's routes (libs/contracts/src/core/second-factor.ts). The login's second step is
 * admitted and settled by the login guard under the user code its challenge names, as a password
 * is: a wrong code counts as a wrong password, and the sixth within the window is 429.
 */
export function secondFactorRoutes(
  backends: Backends,
  loginGuard: LoginGuard,
  csrf: ConsoleCsrf,
  loginMetadata: (req: Request) => Metadata,
  cookieOf: (token: string, maxAge: number) => string,
): RouteGroup {
  const ops = SECOND_FACTOR_ROUTES;
  const complete = async (req: Request, res: Response): Promise<void> => {
    const body = asObject(req.body);
    onlyFields(body, ['challenge', 'code', 'recoveryCode']);
    const challenge = stringField(body, 'challenge', 1000);
    if (challenge === undefined) throw invalidField('challenge', 'field.required');
    const code = stringField(body, 'code', 1000);
    const recoveryCode = stringField(body, 'recoveryCode', 64);
    if ((code === undefined) === (recoveryCode === undefined)) throw invalidField(code === undefined ? 'code' : 'recoveryCode', 'field.invalid');
    if (code !== undefined && !CODE.test(code)) throw invalidField('code', 'field.pattern', { pattern: '6 digits' });
    const ip = clientIp(req);
    // a challenge not of the form names no user: its attempt counts against the address alone
    const attempt = await loginGuard.admit(challengeUserCode(challenge) ?? '', ip);
    if (attempt.refusal) return sendLoginRefusal(req, res, attempt.refusal);
    const metadata = loginMetadata(req);
    let completed;
    try {
      completed = await callRpc(
        backends,
        ops.loginSecondFactor.rpc,
        { challenge, code, recoveryCode, ipAddress: ip, userAgent: header(req, 'user-agent') ?? '', projectCode: header(req, 'x-project-code') },
        metadata,
      );
    } catch (error) {
      await attempt.settle(fromGrpcError(error as ServiceError).code === 'SVC-SYS-1002' ? 'wrong-password' : 'other');
      throw error;
    }
    await attempt.settle('success');
    const login = completed.login;
    if (!login) throw new Error('CompleteLogin answered without a login');
    res.setHeader('Set-Cookie', cookieOf(login.token, login.expiresIn));
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ...loginBody(login), ...(completed.recoveryCodes.length > 0 ? { recoveryCodes: completed.recoveryCodes } : {}) });
  };
  const noStore = (res: Response, value: unknown) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(value);
  };
  return routerFor(ops, {
    loginSecondFactor: complete,
    // the console's page holds no API key; its CSRF proof stands in for it, as on its login
    consoleLoginSecondFactor: async (req, res) => {
      if (!csrf.isGenuine(req)) throw new DomainError('SVC-SYS-1004', 'apiKey.invalid');
      await complete(req, res);
    },
    getSecondFactor: async (req, res) => noStore(res, await callRpc(backends, ops.getSecondFactor.rpc, {}, userMetadata(req, res))),
    startEnrolment: async (req, res) => {
      onlyFields(asObject(req.body ?? {}), []);
      noStore(res, await callRpc(backends, ops.startEnrolment.rpc, {}, userMetadata(req, res)));
    },
    confirmEnrolment: async (req, res) => noStore(res, await callRpc(backends, ops.confirmEnrolment.rpc, { code: codeField(req) }, userMetadata(req, res))),
    regenerateRecoveryCodes: async (req, res) =>
      noStore(res, await callRpc(backends, ops.regenerateRecoveryCodes.rpc, { code: codeField(req) }, userMetadata(req, res))),
    disableSecondFactor: async (req, res) => {
      await callRpc(backends, ops.disableSecondFactor.rpc, { code: codeField(req) }, userMetadata(req, res));
      res.status(204).end();
    },
    resetSecondFactor: async (req, res) => {
      await callRpc(backends, ops.resetSecondFactor.rpc, { id: idParam(req.params.id) }, userMetadata(req, res));
      res.status(204).end();
    },
  });
}

import type { HeaderObject, SchemaObject } from 'openapi3-ts/oas31';
import { SecondFactorServiceService } from '@platform/kit/gen/platform/core/v1/second_factor.ts';
import { rpcOperation, type DocSources, type OperationTable } from '../operation.ts';
import { userInfo } from './user-info.ts';

const SET_COOKIE: Record<string, HeaderObject> = {
  'Set-Cookie': { description: 'SVC_SESSION=<JWT>; HttpOnly; SameSite=Lax; Path=/ (Secure in production).', schema: { type: 'string' } },
};
const CORE = 'platform.core.v1';
const CHALLENGE = `${CORE}.SecondFactorChallenge`;
const ENROLMENT = `${CORE}.TotpEnrolment`;

/** A TOTP enrolment as the interface answers it: the secret, its URI and its QR code. */
export function enrolmentSchema(sources: DocSources): SchemaObject {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      secret: { type: 'string', description: sources.field(ENROLMENT, 'secret') },
      otpauthUri: { type: 'string', description: sources.field(ENROLMENT, 'otpauthUri') },
      qrCode: { type: 'string', description: sources.field(ENROLMENT, 'qrCode') },
    },
    required: ['secret', 'otpauthUri', 'qrCode'],
  };
}

/**
 * The password step's answer for a user with a second factor, or one its tenant requires
 * (docs/adr/0127-a-second-factor-for-password-logins.md): no cookie, no session, a challenge.
 */
export function challengeSchema(sources: DocSources): SchemaObject {
  return {
    type: 'object',
    additionalProperties: false,
    description: 'The password was right; the login waits for its second factor (POST /api/auth/login/second-factor). No cookie is set.',
    properties: {
      success: { const: false, description: 'No session yet.' },
      userCode: { type: 'string', description: 'The user the password was for.' },
      secondFactor: {
        type: 'string',
        enum: ['totp', 'enrol'],
        description: 'totp: send a code from the authenticator (or a recovery code); enrol: add `enrolment` to an authenticator and send a code from it.',
      },
      challenge: { type: 'string', description: sources.field(CHALLENGE, 'challenge') },
      expiresAt: { type: 'string', format: 'date-time', description: sources.field(CHALLENGE, 'expiresAt') },
      enrolment: { ...enrolmentSchema(sources), description: sources.field(CHALLENGE, 'enrolment') },
    },
    required: ['success', 'userCode', 'secondFactor', 'challenge', 'expiresAt'],
  };
}

/** The body of the second step. */
function secondStepBody(sources: DocSources): SchemaObject {
  const about = (field: string) => sources.field(`${CORE}.CompleteLoginRequest`, field);
  return {
    type: 'object',
    additionalProperties: false,
    description: 'The challenge and exactly one of code and recoveryCode.',
    properties: {
      challenge: { type: 'string', maxLength: 1000, description: about('challenge') },
      code: { type: 'string', pattern: '^[0-9]{6}$', description: about('code') },
      recoveryCode: { type: 'string', maxLength: 64, description: about('recoveryCode') },
    },
    required: ['challenge'],
  };
}

/** The second step's answer: the login's, and the recovery codes of an enrolment at the login. */
function completedSchema(sources: DocSources): SchemaObject {
  return {
    allOf: [sources.ref('LoginResponse')],
    properties: {
      recoveryCodes: {
        type: 'array',
        items: { type: 'string' },
        description: `${sources.field(`${CORE}.CompleteLoginResponse`, 'recoveryCodes') ?? ''} Present only then.`.trim(),
      },
    },
  };
}

function codeBody(sources: DocSources, message: string): SchemaObject {
  return {
    type: 'object',
    additionalProperties: false,
    properties: { code: { type: 'string', pattern: '^[0-9]{6}$', description: sources.field(`${CORE}.${message}`, 'code') } },
    required: ['code'],
  };
}

function recoveryCodesSchema(sources: DocSources): SchemaObject {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      recoveryCodes: {
        type: 'array',
        items: { type: 'string' },
        minItems: 10,
        maxItems: 10,
        description: sources.field(`${CORE}.RecoveryCodes`, 'recoveryCodes'),
      },
    },
    required: ['recoveryCodes'],
  };
}

const secondStep = (path: string, summary: string, extra: string) =>
  rpcOperation({
    method: 'post',
    path,
    rpc: { service: 'core', method: SecondFactorServiceService.completeLogin, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary,
      description:
        `${sources.rpc ?? ''} A wrong or used code, a used recovery code, or an unknown or expired challenge: 401 SVC-SYS-1002, counted as a wrong password (the sixth within 15 minutes is 429). ${extra}`.trim(),
      body: { schema: secondStepBody(sources) },
      errors: [401],
      ok: { status: 200, schema: completedSchema(sources), description: 'Logged in; the token is in the cookie.', headers: SET_COOKIE },
    }),
  });

/**
 * The second factor's routes (docs/adr/0127-a-second-factor-for-password-logins.md): the login's
 * second step (API key, or the console's proof), the caller's own factor (JWT), and a user
 * administrator's reset.
 */
export const SECOND_FACTOR_OPERATIONS = {
  loginSecondFactor: secondStep('/api/auth/login/second-factor', "The login's second step: sets the SVC_SESSION cookie", ''),
  consoleLoginSecondFactor: secondStep(
    '/api/auth/console-login/second-factor',
    "The console login's second step: sets the SVC_SESSION cookie",
    "The console's proof stands in for the API key, as on /api/auth/console-login.",
  ),
  getSecondFactor: rpcOperation({
    method: 'get',
    path: '/api/auth/second-factor',
    rpc: { service: 'core', method: SecondFactorServiceService.getSecondFactor, retry: 'read' },
    doc: (sources) => ({
      tag: 'auth',
      summary: "The caller's second factor",
      description: sources.rpc,
      ok: {
        status: 200,
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            enrolled: { type: 'boolean', description: sources.field(`${CORE}.SecondFactorStatus`, 'enrolled') },
            required: { type: 'boolean', description: sources.field(`${CORE}.SecondFactorStatus`, 'required') },
            recoveryCodesLeft: { type: 'integer', description: sources.field(`${CORE}.SecondFactorStatus`, 'recoveryCodesLeft') },
          },
          required: ['enrolled', 'required', 'recoveryCodesLeft'],
        },
        description: 'Whether it is on, required, and how many recovery codes are left.',
      },
    }),
  }),
  startEnrolment: rpcOperation({
    method: 'post',
    path: '/api/auth/second-factor/enrolment',
    rpc: { service: 'core', method: SecondFactorServiceService.startEnrolment, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: 'Start enrolling a TOTP authenticator',
      description: sources.rpc,
      errors: [409],
      ok: { status: 200, schema: enrolmentSchema(sources), description: 'The secret to add to an authenticator, pending until confirmed.' },
    }),
  }),
  confirmEnrolment: rpcOperation({
    method: 'post',
    path: '/api/auth/second-factor/enrolment/confirm',
    rpc: { service: 'core', method: SecondFactorServiceService.confirmEnrolment, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: 'Confirm the TOTP authenticator with a code',
      description: `${sources.rpc ?? ''} A wrong code: 400 SVC-SYS-2001; nothing pending: 409 SVC-SYS-4004.`.trim(),
      body: { schema: codeBody(sources, 'ConfirmEnrolmentRequest') },
      errors: [409],
      ok: { status: 200, schema: recoveryCodesSchema(sources), description: 'The second factor is on; the recovery codes, shown this once.' },
    }),
  }),
  regenerateRecoveryCodes: rpcOperation({
    method: 'post',
    path: '/api/auth/second-factor/recovery-codes',
    rpc: { service: 'core', method: SecondFactorServiceService.regenerateRecoveryCodes, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: 'New recovery codes',
      description: `${sources.rpc ?? ''} A wrong code: 400 SVC-SYS-2001; no second factor: 409 SVC-SYS-4004.`.trim(),
      body: { schema: codeBody(sources, 'RegenerateRecoveryCodesRequest') },
      errors: [409],
      ok: { status: 200, schema: recoveryCodesSchema(sources), description: 'The new codes, shown this once; the old ones no longer serve.' },
    }),
  }),
  disableSecondFactor: rpcOperation({
    method: 'post',
    path: '/api/auth/second-factor/disable',
    rpc: { service: 'core', method: SecondFactorServiceService.disableSecondFactor, retry: 'write' },
    doc: (sources) => ({
      tag: 'auth',
      summary: "Turn the caller's second factor off",
      description:
        `${sources.rpc ?? ''} A wrong code: 400 SVC-SYS-2001; no second factor: 409 SVC-SYS-4004. Where a tenant requires one, the next login enrols again.`.trim(),
      body: { schema: codeBody(sources, 'DisableSecondFactorRequest') },
      errors: [409],
      ok: { status: 204, description: 'Off; the recovery codes are gone too.' },
    }),
  }),
  resetSecondFactor: rpcOperation({
    method: 'post',
    path: '/api/user-info/:id/second-factor/reset',
    rpc: { service: 'core', method: SecondFactorServiceService.resetSecondFactor, retry: 'write' },
    doc: (sources) => ({
      tag: userInfo.path,
      summary: "Reset a user's second factor",
      description: `${sources.rpc ?? ''} Needs user-info:write in the user's tenant; another tenant's user: 404; a user without one: 409 SVC-SYS-4004.`.trim(),
      pathParams: { id: { type: 'integer', format: 'int64', minimum: 1, description: "The user-info's id." } },
      errors: [404, 409],
      ok: { status: 204, description: "Removed; the user's next login enrols again where its tenant requires it. Recorded in the user's history." },
    }),
  }),
} as const satisfies OperationTable;

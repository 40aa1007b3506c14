/**
 * SecondFactorService (docs/adr/0127-a-second-factor-for-password-logins.md): the login's second
 * step, a user's own enrolment, recovery codes and disabling, and a user administrator's reset.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import { actorOf, isSuperUser, tenantScope, userOf, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { TokenService } from '@platform/kit/auth/jwt.ts';
import { DomainError, forbidden, invalidField, notFound, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { recordEvent } from '@platform/service-kit/events/outbox.ts';
import type {
  CompleteLoginRequest,
  CompleteLoginResponse,
  ConfirmEnrolmentRequest,
  DisableSecondFactorRequest,
  RecoveryCodes,
  RegenerateRecoveryCodesRequest,
  ResetSecondFactorRequest,
  SecondFactorStatus,
} from '@platform/kit/gen/platform/core/v1/second_factor.ts';
import type { TotpEnrolment } from '@platform/kit/gen/platform/core/v1/second_factor_challenge.ts';
import type { CoreConfig } from '../config.ts';
import { isLanguage } from '@platform/kit/i18n/messages.ts';
import { loginTenantOf, openSession } from '../auth/open-session.ts';
import { assertWhollyInTenant, lockUser } from '../resources/user-process/user-tenants.ts';
import { acceptCode, codesLocked, confirmFactor, countWrongCode, factorOf, removeFactor, storePending } from './factor-store.ts';
import { acceptCodeAndClose, closeChallenge, lockOpenChallenge, openChallenge } from '../auth/second-factor-challenge.ts';
import { recoveryCodesLeft, replaceRecoveryCodes, useRecoveryCode } from './recovery-codes.ts';
import { CODE_PATTERN, enrolmentOf, newSecret, stepOf } from '../auth/totp.ts';
import { onPlatformPath } from '@platform/service-kit/grpc/platform-path.ts';

/** Every refusal of the login's second step: the answer of a wrong password (decisions §6), with its own words. */
const SECOND_STEP_FAILED = (): DomainError => new DomainError('SVC-SYS-1002', 'secondFactor.failed');
const WRONG_CODE = (): DomainError => invalidField('code', 'secondFactor.codeWrong');
const WRONG_STATE = (): DomainError => new DomainError('SVC-SYS-4004', 'secondFactor.state');

/** The handlers of SecondFactorService. */
export function secondFactorHandlers(config: CoreConfig, tokens: TokenService) {
  const handlers = {
    /**
     * The login's second step, for the internal credential only: the challenge taken once a code
     * from the user's secret (or, enrolling, from the challenge's new secret), or an unused recovery
     * code, is accepted; then the session, as the password step opens it for a user without one.
     */
    async completeLogin(request: CompleteLoginRequest, ctx: CallContext): Promise<CompleteLoginResponse> {
      if (ctx.caller.kind !== 'internal') throw unauthenticated();
      const code = request.code ?? '';
      const recoveryCode = request.recoveryCode ?? '';
      if ((code === '') === (recoveryCode === '')) throw invalidField(code === '' ? 'code' : 'recoveryCode', 'field.invalid');
      if (code !== '' && !CODE_PATTERN.test(code)) throw invalidField('code', 'field.pattern', { pattern: '6 digits' });
      const open = await openChallenge(ctx.em, request.challenge);
      if (!open) throw SECOND_STEP_FAILED();
      let passed: { open: { userCode: string; languageCode: string }; recoveryCodes: string[] } | undefined;
      if (open.enrolSecret === null && code !== '') {
        // the common case in two statements, no transaction around them: the read above, and the step recorded with the challenge closed
        const step = open.secret === null ? undefined : await stepOf(open.secret, code, open.lastStep);
        if (step !== undefined && (await acceptCodeAndClose(ctx.em, request.challenge, open.userCode, step))) passed = { open, recoveryCodes: [] };
      } else {
        passed = await ctx.em.transactional(async (em) => {
          const locked = await lockOpenChallenge(em, request.challenge);
          if (!locked) return undefined;
          let recoveryCodes: string[] = [];
          if (locked.enrolSecret !== null) {
            // enrolling at the login: the code confirms the challenge's secret; no recovery code exists yet
            const step = code === '' ? undefined : await stepOf(locked.enrolSecret, code, null);
            if (step === undefined || !(await confirmFactor(em, locked.userCode, locked.enrolSecret, step))) return undefined;
            recoveryCodes = await replaceRecoveryCodes(em, locked.userCode);
            await recordFactorEvent(em, locked.userCode, 'user-info.second-factor-enrolled', locked.userCode);
          } else if (!(await useRecoveryCode(em, locked.userCode, recoveryCode))) {
            return undefined;
          }
          await closeChallenge(em, request.challenge);
          return { open: locked, recoveryCodes };
        });
      }
      if (!passed) throw SECOND_STEP_FAILED();
      // the user as it was read with the challenge: passive, or without a tenant, since the password step: no session
      const { found } = open;
      const identity = found?.identity;
      const current = identity ? loginTenantOf(identity) : undefined;
      if (!found || found.user.status !== true || !identity || !current) throw SECOND_STEP_FAILED();
      const login = await openSession(ctx.em, config, tokens, identity, current, {
        ...request,
        languageCode: isLanguage(passed.open.languageCode) ? passed.open.languageCode : 'en',
      });
      return { login, recoveryCodes: passed.recoveryCodes };
    },

    async getSecondFactor(_request: unknown, ctx: CallContext): Promise<SecondFactorStatus> {
      const { userCode } = userOf(ctx);
      const factor = await factorOf(ctx.em, userCode);
      const [need] = await ctx.em.execute<{ required: boolean }[]>(
        `select exists(select 1 from core.account a where a.second_factor_required and a.status and a.cr_process_id in
           (select cr_process_id from core.user_tenant where user_code = ? union select cr_process_id from core.user_process where user_code = ? and status)) as required`,
        [userCode, userCode],
      );
      const enrolled = factor?.confirmed === true;
      return { enrolled, required: need?.required === true, recoveryCodesLeft: enrolled ? await recoveryCodesLeft(ctx.em, userCode) : 0 };
    },

    /** A new pending secret (any earlier pending one is replaced); 409 SVC-SYS-4004 while one is confirmed. */
    async startEnrolment(_request: unknown, ctx: CallContext): Promise<TotpEnrolment> {
      const { userCode } = userOf(ctx);
      const secret = newSecret();
      if (!(await storePending(ctx.em, userCode, secret))) throw WRONG_STATE();
      return enrolmentOf(userCode, secret);
    },

    async confirmEnrolment(request: ConfirmEnrolmentRequest, ctx: CallContext): Promise<RecoveryCodes> {
      const { userCode } = userOf(ctx);
      return ctx.em.transactional(async (em) => {
        const factor = await factorOf(em, userCode);
        if (!factor || factor.confirmed) throw WRONG_STATE();
        const step = await stepOf(factor.secret, request.code, null);
        if (step === undefined) throw WRONG_CODE();
        if (!(await confirmFactor(em, userCode, factor.secret, step))) throw WRONG_STATE();
        await recordFactorEvent(em, userCode, 'user-info.second-factor-enrolled', userCode);
        return { recoveryCodes: await replaceRecoveryCodes(em, userCode) };
      });
    },

    async regenerateRecoveryCodes(request: RegenerateRecoveryCodesRequest, ctx: CallContext): Promise<RecoveryCodes> {
      const { userCode } = userOf(ctx);
      const recoveryCodes = await withOwnCode(ctx.em, userCode, request.code, (em) => replaceRecoveryCodes(em, userCode));
      return { recoveryCodes };
    },

    async disableSecondFactor(request: DisableSecondFactorRequest, ctx: CallContext): Promise<object> {
      const { userCode } = userOf(ctx);
      await withOwnCode(ctx.em, userCode, request.code, async (em) => {
        await removeFactor(em, userCode);
        await recordFactorEvent(em, userCode, 'user-info.second-factor-disabled', userCode);
      });
      return {};
    },

    /**
     * A user administrator's reset (docs/adr/0129-a-second-factor-reset-by-the-tenant-s-administrator.md):
     * user-info:write in the user's tenant, and the rules of a user-info update: a super user's, or
     * one with a select for another tenant, is reset by a super user alone. The user's history records it.
     */
    resetSecondFactor: requiring('user-info:write', async (request: ResetSecondFactorRequest, ctx: CallContext): Promise<object> => {
      const scope = tenantScope(ctx);
      await ctx.em.transactional(async (em) => {
        const [user] = await em.execute<{ user_code: string; cr_process_id: string; super_user: boolean }[]>(
          'select user_code, cr_process_id, super_user from core.user_info where id = ?',
          [request.id],
        );
        // another tenant's user is answered as if it did not exist, as its record is
        if (!user || (scope !== undefined && Number(user.cr_process_id) !== scope)) throw notFound('user-info');
        await lockUser(em, user.user_code);
        if (user.super_user && !isSuperUser(ctx)) throw forbidden();
        await assertWhollyInTenant(ctx, user.user_code);
        if (!(await removeFactor(em, user.user_code))) throw WRONG_STATE();
        await em.execute('delete from core.second_factor_challenge where user_code = ?', [user.user_code]);
        await recordFactorEvent(em, user.user_code, 'user-info.second-factor-reset', actorOf(ctx));
      });
      return {};
    }),
  };
  // a user's own second factor, whoever asks: the platform's identity path (its user record's
  // events are written in the tenant the record is kept in); an administrator's reset stays in the
  // caller's scope
  const { resetSecondFactor, ...own } = handlers;
  return { ...onPlatformPath('identity', own), resetSecondFactor };
}

/**
 * `change` in a transaction once `code` is accepted for the user's confirmed secret: 409
 * SVC-SYS-4004 without one, or while wrong codes lock it; a wrong code is 400 SVC-SYS-2001 and
 * counted (outside the transaction, which it ends).
 */
async function withOwnCode<T>(em: EntityManager, userCode: string, code: string, change: (em: EntityManager) => Promise<T>): Promise<T> {
  if (await codesLocked(em, userCode)) throw new DomainError('SVC-SYS-4004', 'secondFactor.locked');
  const done = await em.transactional(async (tx) => {
    if (!(await factorOf(tx, userCode))?.confirmed) throw WRONG_STATE();
    if (!(await acceptCode(tx, userCode, code))) return { accepted: false as const };
    return { accepted: true as const, value: await change(tx) };
  });
  if (!done.accepted) {
    await countWrongCode(em, userCode);
    throw WRONG_CODE();
  }
  return done.value;
}

type FactorEvent = 'user-info.second-factor-enrolled' | 'user-info.second-factor-disabled' | 'user-info.second-factor-reset';

/** The user-info's event of a change to its second factor (no changes: the secret never enters an event). */
async function recordFactorEvent(em: EntityManager, userCode: string, type: FactorEvent, actor: string): Promise<void> {
  const [user] = await em.execute<{ id: string; cr_process_id: string; version: number }[]>(
    'select id, cr_process_id, version from core.user_info where user_code = ?',
    [userCode],
  );
  if (!user) return;
  await recordEvent(em, { type, crProcessId: Number(user.cr_process_id), key: Number(user.id), version: Number(user.version), actor, changes: {} });
}

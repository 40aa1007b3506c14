import { forbidden } from '@platform/kit/errors/domain-error.ts';
import { isSuperUser, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { hashPassword } from '@platform/service-kit/auth/password.ts';
import { accessTokenIdOf } from '@platform/service-kit/auth/access-token.ts';
import { defineHooks, type ResourceHooks } from '@platform/service-kit/crud/runtime.ts';
import { assertWhollyInTenant } from '../user-process/user-tenants.ts';
import { userInfo } from '@platform/contracts/core/user-info.ts';

/**
 * user-info: the password is hashed before it is stored and a new one ends every token of the
 * user (tokenVersion); only a super user may make or unmake a super user, or change or delete
 * one (a tenant's user administrator must not take over a super user's login); a user with a
 * select for another tenant is changed or deleted only by a super user (it is not wholly the
 * caller's user). A user that a user-process or a group-member names cannot be deleted: their
 * foreign keys on user_code refuse the delete (409 SVC-SYS-4003, as any referenced record).
 * The CRUD engine holds the row FOR UPDATE while these run, as user-process writes do (lockUser).
 * An update that takes superUser away is the move `user-info.demoted` (its event in place of
 * `user-info.updated`); the password and its hash never enter an event (write-only, own column).
 */
export function userInfoHooks(bcryptRounds: number): ResourceHooks {
  return defineHooks(userInfo, {
    async beforeWrite(values, _input, ctx, mode, current) {
      if (current?.superUser === true && !mayManageSuperUsers(ctx)) throw forbidden();
      if (values.superUser !== undefined && (mode === 'create' ? values.superUser === true : values.superUser !== current?.superUser)) {
        if (!mayManageSuperUsers(ctx)) throw forbidden();
      }
      if (current) await assertWhollyInTenant(ctx, current.userCode);
      if (typeof values.password === 'string') {
        // a personal access token never sets its own user's password (docs/adr/0136-what-a-token-may-not-do-and-its-expiry.md)
        if (current && ctx.caller.kind === 'user' && ctx.caller.claims.userCode === current.userCode && accessTokenIdOf(ctx.caller.claims)) throw forbidden();
        values.password = await hashPassword(values.password, bcryptRounds);
        if (mode === 'update' && current) values.tokenVersion = current.tokenVersion + 1;
      }
    },
    event(mode, before, after) {
      return mode === 'update' && before?.superUser === true && after.superUser !== true ? { type: 'user-info.demoted' } : undefined;
    },
    async beforeDelete(row, ctx) {
      if (row.superUser === true && !mayManageSuperUsers(ctx)) throw forbidden();
      await assertWhollyInTenant(ctx, row.userCode);
    },
  });
}

function mayManageSuperUsers(ctx: CallContext): boolean {
  return isSuperUser(ctx) || ctx.caller.kind === 'internal';
}

import { forbidden, DomainError } from '@platform/libs/errors/domain-error.ts';
import { isSuperUser } from '@platform/libs/auth/caller.ts';
import { hashPassword } from '@platform/libs/auth/password.ts';
import type { ResourceHooks } from '@platform/libs/crud/handlers.ts';
import { UserProcessEntity } from '../../db.ts';

/**
 * user-info: the password is hashed before it is stored and a new one ends every token of the
 * user (tokenVersion); only a super user may make or unmake a super user; a user that a
 * user-process names cannot be deleted (409).
 */
export function userInfoHooks(bcryptRounds: number): ResourceHooks {
  return {
    async beforeWrite(values, _input, ctx, mode, current) {
      if (values.superUser !== undefined && (mode === 'create' ? values.superUser === true : values.superUser !== current?.superUser)) {
        if (!isSuperUser(ctx) && ctx.caller.kind !== 'internal') throw forbidden();
      }
      if (typeof values.password === 'string') {
        values.password = await hashPassword(values.password, bcryptRounds);
        if (mode === 'update' && current) values.tokenVersion = Number(current.tokenVersion ?? 0) + 1;
      }
    },
    async beforeDelete(row, ctx) {
      if ((await ctx.em.count(UserProcessEntity, { userCode: row.userCode })) > 0) {
        throw new DomainError('SVC-SYS-4003', 'record.referenced');
      }
    },
  };
}

import { userInfo } from '@platform/contracts/core/user-info.ts';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { loginUserOf } from '../access-tokens/login-user.ts';
import { hashPassword, verifyPassword } from '@platform/service-kit/auth/password.ts';
import type { CoreConfig } from '../config.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import { DomainError, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { recordEvent } from '@platform/service-kit/events/outbox.ts';
import type { ChangePasswordRequest } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { sessionOf } from './token-session.ts';

/**
 * AuthService.ChangePassword: the caller's password replaced once its current one verifies; the
 * token version rises with it, so that every token issued before is no longer live.
 */
export function changePassword(config: CoreConfig): (request: ChangePasswordRequest, ctx: CallContext) => Promise<object> {
  return async (request, ctx) => {
    const claims = loginUserOf(ctx);
    const { user } = await sessionOf(ctx.em, claims);
    // the rules of user-info's password field (8 characters to 72 bytes), stated once
    toRowValue('newPassword', userInfo.fields.password, request.newPassword);
    if (!(await verifyPassword(request.currentPassword, user.password, config.bcryptRounds))) {
      throw new DomainError('SVC-SYS-1006', 'password.wrongCurrent');
    }
    const hash = await hashPassword(request.newPassword, config.bcryptRounds);
    await ctx.em.transactional(async (em) => {
      // One statement: the version rises even when two changes race.
      const [changed] = await em.execute<{ version: number; cr_process_id: string }[]>(
        `update core.user_info set password = ?, token_version = token_version + 1, version = version + 1, updated_at = ?, updated_by = ?
          where id = ? returning version, cr_process_id`,
        [hash, new Date(), claims.userCode, user.id],
      );
      if (!changed) throw unauthenticated();
      // an update of the user-info like any other, whose one change (the password) never enters an event
      await recordEvent(em, {
        type: 'user-info.password-changed',
        crProcessId: Number(changed.cr_process_id),
        key: user.id,
        version: Number(changed.version),
        actor: claims.userCode,
        changes: {},
      });
    });
    return {};
  };
}

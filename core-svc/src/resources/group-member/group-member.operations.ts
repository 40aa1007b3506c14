import { invalidField } from '@platform/libs/errors/domain-error.ts';
import type { ResourceHooks } from '@platform/libs/crud/handlers.ts';
import { UserInfoEntity } from '../../db.ts';

/**
 * group-member: userCode must name an existing user-info (400 SVC-SYS-2001 otherwise). A
 * user-info is a login of the whole platform, not of one tenant, so any existing user may be made
 * a member; deleting a user-info that a member names is refused (user-info.operations.ts).
 */
export const groupMemberHooks: ResourceHooks = {
  async beforeWrite(values, _input, ctx) {
    if (values.userCode === undefined) return;
    if ((await ctx.em.count(UserInfoEntity, { userCode: values.userCode })) === 0) throw invalidField('userCode', 'field.reference');
  },
};

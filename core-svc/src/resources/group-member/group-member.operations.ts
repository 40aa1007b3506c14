import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { defineHooks, type ResourceHooks } from '@platform/service-kit/crud/runtime.ts';
import { hasSelectIn, lockUser, storedTenantOf } from '../user-process/user-tenants.ts';
import { groupMember } from '@platform/contracts/core/group-member.ts';

/**
 * group-member: userCode must name an existing user-info (400 SVC-SYS-2001 `user.unknown`; the
 * foreign key group_member_user_code_foreign keeps it, and refuses deleting a user-info a member
 * names) that has a select for the group's tenant (400 `user.notInTenant`): a tenant's groups hold
 * that tenant's users only, so a membership never reaches into another tenant's user
 * administration. The user's user-info row is held FOR SHARE, so a change of its selects waits for
 * this write; finding no row to lock answers `user.unknown` before the key would.
 */
export const groupMemberHooks: ResourceHooks = defineHooks(groupMember, {
  async beforeWrite(values, _input, ctx, _mode, current) {
    const userCode = values.userCode ?? current?.userCode;
    const crProcessId = current?.crProcessId ?? values.crProcessId;
    if (userCode === undefined || crProcessId === undefined) throw invalidField('userCode', 'field.required');
    if (!(await lockUser(ctx.em, userCode, 'share'))) {
      // a user kept in another tenant, with no select in the caller's, is not seen by it
      // (docs/adr/0151-row-level-security-the-second-wall.md): one that exists is not in this tenant
      throw invalidField('userCode', (await storedTenantOf(ctx.em, userCode)) === undefined ? 'user.unknown' : 'user.notInTenant');
    }
    if (!(await hasSelectIn(ctx.em, userCode, crProcessId))) throw invalidField('userCode', 'user.notInTenant');
  },
});

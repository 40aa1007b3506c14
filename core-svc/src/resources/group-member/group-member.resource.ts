import { defineResource } from '@platform/libs/crud/resource.ts';
import { GroupMemberServiceService, type GroupMember } from '@platform/libs/gen/platform/core/v1/group_member.ts';

/** A user's membership of a group: the user holds the group's roles in the group's tenant. */
export const groupMember = defineResource<GroupMember>()({
  path: 'group-member',
  name: 'GroupMember',
  plural: 'GroupMembers',
  service: 'core',
  grpc: GroupMemberServiceService,
  operations: 'no-stats',
  fields: {
    groupId: { kind: 'long', required: true, references: 'group' },
    // a user-info's userCode, checked by the hooks (user-infos are global, not per tenant)
    userCode: { kind: 'string', required: true, maxLength: 64, searchable: true },
  },
  uniques: [['groupId', 'userCode']],
});

import { defineResource } from '@platform/kit/resource/resource.ts';
import { GroupMemberServiceService, GroupMember } from '@platform/kit/gen/platform/core/v1/group_member.ts';

/** A user's membership of a group: the user holds the group's roles in the group's tenant. */
export const groupMember = defineResource<GroupMember>()({
  path: 'group-member',
  name: 'GroupMember',
  plural: 'GroupMembers',
  service: 'core',
  menu: { area: 'administration' },
  grpc: GroupMemberServiceService,
  encoder: GroupMember,
  operations: 'no-stats',
  fields: {
    groupId: { kind: 'long', required: true, references: 'group', doc: 'The group (same tenant).' },
    // a user-info's userCode (user-infos are global, not per tenant); the hooks check the tenant
    userCode: {
      kind: 'string',
      doc: 'The user-info; unique within the group.',
      required: true,
      maxLength: 64,
      searchable: true,
      // a group holds the users with a select for its tenant, wherever their user-info is kept
      referencesKey: { resource: 'user-info', key: 'userCode', unknown: 'user.unknown', candidates: 'tenant-members' },
    },
  },
  uniques: [['groupId', 'userCode']],
  form: {
    sections: [{ title: { en: 'Membership', tr: 'Üyelik' }, fields: ['groupId', 'userCode', 'status'] }],
  },
  labels: {
    en: { one: 'Group member', other: 'Group members', fields: { groupId: 'Group', userCode: 'User' } },
    tr: { one: 'Grup üyesi', other: 'Grup üyeleri', fields: { groupId: 'Grup', userCode: 'Kullanıcı' } },
  },
  list: {
    columns: ['groupId', 'userCode', 'status'],
    filters: ['groupId', 'userCode'],
  },
});

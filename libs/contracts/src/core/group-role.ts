import { defineResource } from '@platform/kit/resource/resource.ts';
import { GroupRoleServiceService, GroupRole } from '@platform/kit/gen/platform/core/v1/group_role.ts';

/** A role granted to the members of a group; group and role-type are of the record's tenant. */
export const groupRole = defineResource<GroupRole>()({
  path: 'group-role',
  name: 'GroupRole',
  plural: 'GroupRoles',
  service: 'core',
  menu: { area: 'administration' },
  grpc: GroupRoleServiceService,
  encoder: GroupRole,
  operations: 'no-stats',
  fields: {
    groupId: { kind: 'long', required: true, references: 'group', doc: 'The group (same tenant).' },
    roleTypeId: { kind: 'long', required: true, references: 'role-type', doc: 'The role-type (same tenant); unique within the group.' },
  },
  uniques: [['groupId', 'roleTypeId']],
  form: {
    sections: [{ title: { en: 'Role of the group', tr: 'Grubun rolü' }, fields: ['groupId', 'roleTypeId', 'status'] }],
  },
  labels: {
    en: { one: 'Group role', other: 'Group roles', fields: { groupId: 'Group', roleTypeId: 'Role' } },
    tr: { one: 'Grup rolü', other: 'Grup rolleri', fields: { groupId: 'Grup', roleTypeId: 'Rol' } },
  },
  list: {
    columns: ['groupId', 'roleTypeId', 'status'],
    filters: ['groupId', 'roleTypeId'],
  },
});

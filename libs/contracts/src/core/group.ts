import { defineResource } from '@platform/kit/resource/resource.ts';
import { GroupServiceService, Group } from '@platform/kit/gen/platform/core/v1/group.ts';

/**
 * A security group of a tenant. Its members hold the roles its group-roles grant while it is
 * active (status true); a passive group grants nothing. The table is `security_group`, since
 * `group` is an SQL keyword.
 */
export const group = defineResource<Group>()({
  path: 'group',
  name: 'Group',
  plural: 'Groups',
  service: 'core',
  menu: { area: 'administration' },
  grpc: GroupServiceService,
  encoder: Group,
  operations: 'full',
  table: 'security_group',
  fields: {
    groupName: { kind: 'string', required: true, unique: 'tenant', searchable: true, doc: 'Unique per tenant.' },
    description: { kind: 'string', searchable: true, doc: 'Free text.' },
  },
  form: {
    sections: [{ title: { en: 'Group', tr: 'Grup' }, fields: ['groupName', 'description', 'status'] }],
  },
  labels: {
    en: { one: 'Group', other: 'Groups', fields: { groupName: 'Group name', description: 'Description' } },
    tr: { one: 'Grup', other: 'Gruplar', fields: { groupName: 'Grup adı', description: 'Açıklama' } },
  },
  list: {
    columns: ['groupName', 'description', 'status'],
    filters: ['groupName', 'status'],
    match: { groupName: 'prefix' },
  },
});

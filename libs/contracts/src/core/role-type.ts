import { defineResource } from '@platform/kit/resource/resource.ts';
import { RoleTypeServiceService, RoleType } from '@platform/kit/gen/platform/core/v1/role_type.ts';

/**
 * A role a tenant can grant: its roleCode is what the role checks ask for (`branch:read`,
 * `accrual:approve`; docs/interface.md#identity). Like every record it belongs to a tenant, so each tenant
 * declares the roles its groups grant.
 */
export const roleType = defineResource<RoleType>()({
  path: 'role-type',
  name: 'RoleType',
  plural: 'RoleTypes',
  service: 'core',
  menu: { area: 'administration' },
  grpc: RoleTypeServiceService,
  encoder: RoleType,
  operations: 'no-stats',
  fields: {
    roleCode: { kind: 'string', required: true, maxLength: 64, unique: 'tenant', searchable: true, doc: 'The role, such as branch:read; unique per tenant.' },
    roleName: { kind: 'string', required: true, searchable: true, doc: 'Display name.' },
    description: { kind: 'string', searchable: true, doc: 'Free text.' },
  },
  form: {
    sections: [{ title: { en: 'Role', tr: 'Rol' }, fields: ['roleCode', 'roleName', 'description', 'status'] }],
  },
  labels: {
    en: {
      one: 'Role',
      other: 'Roles',
      fields: { roleCode: 'Role code', roleName: 'Role name', description: 'Description' },
      help: { roleCode: 'What the role allows, such as branch:read.' },
    },
    tr: {
      one: 'Rol',
      other: 'Roller',
      fields: { roleCode: 'Rol kodu', roleName: 'Rol adı', description: 'Açıklama' },
      help: { roleCode: 'Rolün izin verdiği işlem, ör. branch:read.' },
    },
  },
  list: {
    columns: ['roleCode', 'roleName', 'description'],
    filters: ['roleCode', 'roleName'],
    match: { roleCode: 'prefix', roleName: 'prefix' },
  },
});

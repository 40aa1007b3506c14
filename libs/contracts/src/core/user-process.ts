import { defineResource } from '@platform/kit/resource/resource.ts';
import { UserProcessServiceService, UserProcess } from '@platform/kit/gen/platform/core/v1/user_process.ts';

/**
 * A user's link to the accounts (tenants) it may work in: its userProcessSelects, written as
 * `[{accountNo}]` and read as `[{accountNo, accountName, crProcessId}]` ordered by accountNo.
 */
export const userProcess = defineResource<UserProcess>()({
  path: 'user-process',
  name: 'UserProcess',
  plural: 'UserProcesses',
  service: 'core',
  menu: { area: 'administration', label: { en: 'Tenant memberships', tr: 'Kiracı üyelikleri' } },
  grpc: UserProcessServiceService,
  encoder: UserProcess,
  operations: 'full',
  fields: {
    userCode: {
      kind: 'string',
      doc: 'The user-info.',
      required: true,
      maxLength: 64,
      unique: 'global',
      immutable: true,
      searchable: true,
      referencesKey: { resource: 'user-info', key: 'userCode', unknown: 'user.unknown' },
    },
    userDescription: { kind: 'string', searchable: true, doc: 'Taken from the user-info when omitted.' },
    userProcessSelects: {
      kind: 'objects',
      message: 'UserProcessSelect',
      required: true,
      of: { accountNo: { kind: 'string', required: true, maxLength: 64 } },
      doc: 'Accounts of the user, ordered by accountNo (on write only accountNo is read).',
    },
  },
  list: {
    columns: ['userCode', 'userDescription', 'crProcessId', 'status'],
    filters: ['userCode', 'status'],
  },
});

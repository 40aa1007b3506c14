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
  menu: { area: 'administration' },
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
      shown: { accountName: { kind: 'string' }, crProcessId: { kind: 'long' } },
      doc: 'Accounts of the user, ordered by accountNo (on write only accountNo is read).',
    },
  },
  form: {
    sections: [
      { title: { en: 'User', tr: 'Kullanıcı' }, fields: ['userCode', 'userDescription', 'status'] },
      { title: { en: 'Tenants and roles', tr: 'Kiracılar ve roller' }, fields: ['userProcessSelects'] },
    ],
  },
  labels: {
    en: {
      one: 'Tenant membership',
      other: 'Tenant memberships',
      fields: {
        userCode: 'User',
        userDescription: 'User name',
        userProcessSelects: 'Accounts',
        'userProcessSelects.accountNo': 'Account number',
        'userProcessSelects.accountName': 'Account name',
        'userProcessSelects.crProcessId': 'Tenant',
      },
      help: { userDescription: "Left empty, the user's full name is taken.", userProcessSelects: 'The accounts (tenants) the user may work in.' },
    },
    tr: {
      one: 'Kiracı üyeliği',
      other: 'Kiracı üyelikleri',
      fields: {
        userCode: 'Kullanıcı',
        userDescription: 'Kullanıcı adı',
        userProcessSelects: 'Hesaplar',
        'userProcessSelects.accountNo': 'Hesap numarası',
        'userProcessSelects.accountName': 'Hesap adı',
        'userProcessSelects.crProcessId': 'Kiracı',
      },
      help: { userDescription: 'Boş bırakılırsa kullanıcının adı soyadı alınır.', userProcessSelects: 'Kullanıcının çalışabileceği hesaplar (kiracılar).' },
    },
  },
  list: {
    columns: ['userCode', 'userDescription', 'crProcessId', 'status'],
    filters: ['userCode', 'status'],
  },
});

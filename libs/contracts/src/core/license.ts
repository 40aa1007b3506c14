import { defineResource } from '@platform/kit/resource/resource.ts';
import { LicenseServiceService, License } from '@platform/kit/gen/platform/core/v1/license.ts';

/**
 * A licence an account holds (docs/interface.md#records): its key (unique across the platform), type, seats and
 * validity. Every create, update and delete writes a license-history row in the same transaction.
 */
export const license = defineResource<License>()({
  path: 'license',
  name: 'License',
  plural: 'Licenses',
  service: 'core',
  menu: { area: 'administration' },
  grpc: LicenseServiceService,
  encoder: License,
  operations: 'full',
  fields: {
    licenseKey: { kind: 'string', required: true, maxLength: 128, unique: 'global', searchable: true, doc: 'Licence key, unique across the platform.' },
    licenseType: { kind: 'enum', required: true, values: ['TRIAL', 'STANDARD', 'ENTERPRISE'], doc: 'TRIAL, STANDARD or ENTERPRISE.' },
    maxUsers: { kind: 'int', required: true, min: 1, doc: 'Seats: users the licence allows.' },
    validFrom: { kind: 'date', required: true, doc: 'First valid day, YYYY-MM-DD.' },
    validUntil: { kind: 'date', required: true, notBefore: 'validFrom', doc: 'Last valid day, YYYY-MM-DD; not before valid_from.' },
    // the account of the licence's own tenant (core-svc/src/resources/license/license.operations.ts); an account it names cannot be deleted
    accountNo: {
      kind: 'string',
      maxLength: 64,
      searchable: true,
      referencesKey: { resource: 'account', key: 'accountNo' },
      doc: 'The account (tenant) that holds it.',
    },
  },
  form: {
    sections: [
      { title: { en: 'Licence', tr: 'Lisans' }, fields: ['licenseKey', 'licenseType', 'accountNo', 'status'] },
      { title: { en: 'Validity and limits', tr: 'Geçerlilik ve sınırlar' }, fields: ['validFrom', 'validUntil', 'maxUsers'] },
    ],
  },
  labels: {
    en: {
      one: 'Licence',
      other: 'Licences',
      fields: {
        licenseKey: 'Licence key',
        licenseType: 'Licence type',
        maxUsers: 'Seats',
        validFrom: 'Valid from',
        validUntil: 'Valid until',
        accountNo: 'Account',
      },
      values: { licenseType: { TRIAL: 'Trial', STANDARD: 'Standard', ENTERPRISE: 'Enterprise' } },
      help: { maxUsers: 'How many users the licence allows.' },
    },
    tr: {
      one: 'Lisans',
      other: 'Lisanslar',
      fields: {
        licenseKey: 'Lisans anahtarı',
        licenseType: 'Lisans türü',
        maxUsers: 'Kullanıcı hakkı',
        validFrom: 'Geçerlilik başlangıcı',
        validUntil: 'Geçerlilik bitişi',
        accountNo: 'Hesap',
      },
      values: { licenseType: { TRIAL: 'Deneme', STANDARD: 'Standart', ENTERPRISE: 'Kurumsal' } },
      help: { maxUsers: 'Lisansın izin verdiği kullanıcı sayısı.' },
    },
  },
  list: {
    columns: ['licenseKey', 'licenseType', 'accountNo', 'maxUsers', 'validFrom', 'validUntil'],
    filters: ['licenseKey', 'licenseType', 'accountNo', 'validUntil'],
    match: { licenseKey: 'prefix' },
  },
});

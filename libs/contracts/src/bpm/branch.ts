import { defineResource } from '@platform/kit/resource/resource.ts';
import { BranchServiceService, Branch } from '@platform/kit/gen/platform/bpm/v1/branch.ts';

/** A location of a business partner; its code is unique within the partner (docs/interface.md#records). */
export const branch = defineResource<Branch>()({
  path: 'branch',
  name: 'Branch',
  plural: 'Branches',
  service: 'bpm',
  menu: { area: 'partners' },
  grpc: BranchServiceService,
  encoder: Branch,
  operations: 'full',
  fields: {
    businessPartnerId: { kind: 'long', required: true, references: 'business-partner', doc: 'The business partner (same tenant).' },
    branchName: { kind: 'string', required: true, searchable: true, doc: 'Display name.' },
    branchCode: { kind: 'string', required: true, maxLength: 64, searchable: true, doc: 'Unique within the partner.' },
    address: { kind: 'string', maxLength: 1000, doc: 'Postal address.' },
    phone: { kind: 'string', maxLength: 32, doc: 'Phone number.' },
    email: { kind: 'string', doc: 'E-mail address.' },
  },
  uniques: [['businessPartnerId', 'branchCode']],
  form: {
    sections: [
      { title: { en: 'Branch', tr: 'Şube' }, fields: ['businessPartnerId', 'branchCode', 'branchName', 'status'] },
      { title: { en: 'Contact', tr: 'İletişim' }, fields: ['email', 'phone', 'address'] },
    ],
  },
  labels: {
    en: {
      one: 'Branch',
      other: 'Branches',
      fields: {
        businessPartnerId: 'Business partner',
        branchName: 'Branch name',
        branchCode: 'Branch code',
        address: 'Address',
        phone: 'Phone',
        email: 'E-mail',
      },
      help: { branchCode: 'No other branch of the same partner has it.' },
    },
    tr: {
      one: 'Şube',
      other: 'Şubeler',
      fields: { businessPartnerId: 'İş ortağı', branchName: 'Şube adı', branchCode: 'Şube kodu', address: 'Adres', phone: 'Telefon', email: 'E-posta' },
      help: { branchCode: 'Aynı ortağın başka hiçbir şubesinde olmayan bir kod.' },
    },
  },
  list: {
    columns: ['branchCode', 'branchName', 'businessPartnerId', 'phone', 'email'],
    filters: ['branchCode', 'branchName', 'businessPartnerId'],
    match: { branchCode: 'prefix', branchName: 'contains' },
  },
});

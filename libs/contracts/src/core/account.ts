import { defineResource } from '@platform/kit/resource/resource.ts';
import { AccountServiceService, Account } from '@platform/kit/gen/platform/core/v1/account.ts';

/** A tenant, addressed by accountNo; its crProcessId is the tenant's id (docs/interface.md#records). */
export const account = defineResource<Account>()({
  path: 'account',
  name: 'Account',
  plural: 'Accounts',
  service: 'core',
  menu: { area: 'administration' },
  grpc: AccountServiceService,
  encoder: Account,
  operations: 'full',
  key: 'accountNo',
  fields: {
    crProcessId: { kind: 'long', required: true, immutable: true, unique: 'global', min: 1, doc: 'Tenant.' },
    accountNo: { kind: 'string', required: true, maxLength: 64, unique: 'global', immutable: true, searchable: true, doc: 'Key in path; globally unique.' },
    accountName: { kind: 'string', required: true, searchable: true, doc: 'Display name.' },
    taxNumber: { kind: 'string', maxLength: 32, doc: 'Tax number.' },
    email: { kind: 'string', doc: 'E-mail address.' },
    // docs/adr/0128-a-tenant-requires-the-second-factor.md
    secondFactorRequired: {
      kind: 'boolean',
      default: false,
      doc: 'Every user who works in this tenant logs in with a second factor (TOTP); one not yet enrolled enrols at the login.',
    },
  },
  form: {
    sections: [
      { title: { en: 'Account', tr: 'Hesap' }, fields: ['accountNo', 'accountName', 'taxNumber', 'status'] },
      { title: { en: 'Contact', tr: 'İletişim' }, fields: ['email'] },
      { title: { en: 'Security', tr: 'Güvenlik' }, fields: ['secondFactorRequired'] },
    ],
  },
  labels: {
    en: {
      one: 'Account',
      other: 'Accounts',
      fields: {
        accountNo: 'Account number',
        accountName: 'Account name',
        taxNumber: 'Tax number',
        email: 'E-mail',
        secondFactorRequired: 'Second factor required',
      },
      help: {
        accountNo: 'Names the account everywhere; it cannot be changed later.',
        secondFactorRequired: 'Everyone who works in this account signs in with an authenticator code as well as the password.',
      },
    },
    tr: {
      one: 'Hesap',
      other: 'Hesaplar',
      fields: {
        accountNo: 'Hesap numarası',
        accountName: 'Hesap adı',
        taxNumber: 'Vergi numarası',
        email: 'E-posta',
        secondFactorRequired: 'İkinci doğrulama zorunlu',
      },
      help: {
        accountNo: 'Hesabı her yerde tanımlar; sonradan değiştirilemez.',
        secondFactorRequired: 'Bu hesapta çalışan herkes parolanın yanında doğrulayıcı uygulamasının kodunu da girer.',
      },
    },
  },
  list: {
    columns: ['accountNo', 'accountName', 'taxNumber', 'email', 'status'],
    filters: ['accountNo', 'accountName', 'taxNumber', 'status'],
    match: { accountNo: 'prefix', accountName: 'prefix', taxNumber: 'prefix' },
  },
});

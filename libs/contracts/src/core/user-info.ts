import { defineResource } from '@platform/kit/resource/resource.ts';
import { UserInfoServiceService, UserInfo } from '@platform/kit/gen/platform/core/v1/user_info.ts';

/** A login. The password is write-only and stored as a bcrypt hash (docs/interface.md#records). */
export const userInfo = defineResource<UserInfo>()({
  path: 'user-info',
  name: 'UserInfo',
  plural: 'UserInfos',
  service: 'core',
  menu: { area: 'administration' },
  grpc: UserInfoServiceService,
  encoder: UserInfo,
  operations: 'full',
  fields: {
    userCode: { kind: 'string', required: true, maxLength: 64, unique: 'global', immutable: true, searchable: true, doc: 'Login name; globally unique.' },
    userDescription: { kind: 'string', required: true, searchable: true, doc: 'Display name.' },
    // bcrypt reads at most 72 bytes (not characters: "é" is two); the column holds the 60-character hash.
    password: {
      kind: 'string',
      required: true,
      writeOnly: true,
      minLength: 8,
      maxLength: 72,
      maxBytes: 72,
      doc: 'Write-only: at least 8 characters, stored as a bcrypt hash.',
    },
    email: { kind: 'string', doc: 'E-mail address.' },
    languageCode: { kind: 'enum', values: ['en', 'tr'], default: 'en', doc: 'en or tr.' },
    superUser: { kind: 'boolean', default: false, doc: 'Bypasses role checks; only a super user may set it.' },
  },
  columns: {
    // raised by a new password: every older token of the user is refused (docs/interface.md#token-and-cookie)
    tokenVersion: { kind: 'int', default: 0 },
  },
  form: {
    sections: [
      { title: { en: 'Identity', tr: 'Kimlik' }, fields: ['userCode', 'userDescription', 'email', 'status'] },
      { title: { en: 'Sign-in and rights', tr: 'Oturum ve yetkiler' }, fields: ['password', 'languageCode', 'superUser'] },
    ],
  },
  labels: {
    en: {
      one: 'User',
      other: 'Users',
      fields: { userCode: 'User code', userDescription: 'Full name', password: 'Password', email: 'E-mail', languageCode: 'Language', superUser: 'Super user' },
      values: { languageCode: { en: 'English', tr: 'Turkish' } },
      help: {
        userCode: 'The name the user signs in with; it cannot be changed later.',
        password: 'At least 8 characters.',
        superUser: 'Passes every role check; only a super user may grant it.',
      },
    },
    tr: {
      one: 'Kullanıcı',
      other: 'Kullanıcılar',
      fields: {
        userCode: 'Kullanıcı kodu',
        userDescription: 'Ad soyad',
        password: 'Parola',
        email: 'E-posta',
        languageCode: 'Dil',
        superUser: 'Süper kullanıcı',
      },
      values: { languageCode: { en: 'İngilizce', tr: 'Türkçe' } },
      help: {
        userCode: 'Kullanıcının giriş adı; sonradan değiştirilemez.',
        password: 'En az 8 karakter.',
        superUser: 'Tüm rol denetimlerinden geçer; yalnızca bir süper kullanıcı verebilir.',
      },
    },
  },
  list: {
    columns: ['userCode', 'userDescription', 'email', 'languageCode', 'superUser', 'status'],
    filters: ['userCode', 'email', 'status'],
    match: { userCode: 'prefix', email: 'prefix' },
  },
});

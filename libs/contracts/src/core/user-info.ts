import { defineResource } from '@platform/kit/resource/resource.ts';
import { UserInfoServiceService, UserInfo } from '@platform/kit/gen/platform/core/v1/user_info.ts';

/** A login. The password is write-only and stored as a bcrypt hash (docs/interface.md#records). */
export const userInfo = defineResource<UserInfo>()({
  path: 'user-info',
  name: 'UserInfo',
  plural: 'UserInfos',
  service: 'core',
  grpc: UserInfoServiceService,
  encoder: UserInfo,
  operations: 'full',
  fields: {
    userCode: { kind: 'string', required: true, maxLength: 64, unique: 'global', immutable: true, searchable: true },
    userDescription: { kind: 'string', required: true, searchable: true },
    // bcrypt reads at most 72 bytes (not characters: "é" is two); the column holds the 60-character hash.
    password: { kind: 'string', required: true, writeOnly: true, minLength: 8, maxLength: 72, maxBytes: 72 },
    email: { kind: 'string' },
    languageCode: { kind: 'enum', values: ['en', 'tr'], default: 'en' },
    superUser: { kind: 'boolean', default: false },
  },
  columns: {
    // raised by a new password: every older token of the user is refused (docs/interface.md#token-and-cookie)
    tokenVersion: { kind: 'int', default: 0 },
  },
});

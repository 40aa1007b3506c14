import { defineResource } from '@platform/kit/resource/resource.ts';
import { AccountServiceService, Account } from '@platform/kit/gen/platform/core/v1/account.ts';

/** A tenant, addressed by accountNo; its crProcessId is the tenant's id (docs/interface.md#records). */
export const account = defineResource<Account>()({
  path: 'account',
  name: 'Account',
  plural: 'Accounts',
  service: 'core',
  grpc: AccountServiceService,
  encoder: Account,
  operations: 'full',
  key: 'accountNo',
  fields: {
    crProcessId: { kind: 'long', required: true, immutable: true, unique: 'global', min: 1 },
    accountNo: { kind: 'string', required: true, maxLength: 64, unique: 'global', immutable: true, searchable: true },
    accountName: { kind: 'string', required: true, searchable: true },
    taxNumber: { kind: 'string', maxLength: 32 },
    email: { kind: 'string' },
  },
});

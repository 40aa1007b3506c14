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
  grpc: LicenseServiceService,
  encoder: License,
  operations: 'full',
  fields: {
    licenseKey: { kind: 'string', required: true, maxLength: 128, unique: 'global', searchable: true },
    licenseType: { kind: 'enum', required: true, values: ['TRIAL', 'STANDARD', 'ENTERPRISE'] },
    maxUsers: { kind: 'int', required: true, min: 1 },
    validFrom: { kind: 'date', required: true },
    validUntil: { kind: 'date', required: true, notBefore: 'validFrom' },
    // the account of the licence's own tenant (core-svc/src/resources/license/license.operations.ts); an account it names cannot be deleted
    accountNo: { kind: 'string', maxLength: 64, searchable: true, referencesKey: { resource: 'account', key: 'accountNo' } },
  },
});

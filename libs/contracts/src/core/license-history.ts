import { defineResource } from '@platform/kit/resource/resource.ts';
import { LicenseHistoryServiceService, LicenseHistory } from '@platform/kit/gen/platform/core/v1/license_history.ts';

/**
 * One change of a licence, read-only (docs/interface.md#records): written by every licence create, update and
 * delete in its transaction (core-svc/src/resources/license/license.operations.ts), in the licence's tenant (docs/interface.md#records). It
 * outlives the licence, so licenseId is no foreign key.
 */
export const licenseHistory = defineResource<LicenseHistory>()({
  path: 'license-history',
  name: 'LicenseHistory',
  plural: 'LicenseHistories',
  service: 'core',
  menu: { area: 'administration' },
  grpc: LicenseHistoryServiceService,
  encoder: LicenseHistory,
  operations: 'read-only',
  fields: {
    licenseId: {
      kind: 'long',
      required: true,
      notReference: 'a history row outlives the licence it records: deleting the licence writes its last row',
      doc: 'The licence changed (kept after the licence is deleted).',
    },
    action: { kind: 'enum', required: true, values: ['CREATE', 'UPDATE', 'DELETE'], doc: 'CREATE, UPDATE or DELETE.' },
    snapshot: { kind: 'text', required: true, doc: 'The licence as JSON, as it was after the change (before, for DELETE).' },
    changedBy: { kind: 'string', required: true, maxLength: 64, doc: 'userCode of who changed it.' },
    changedAt: { kind: 'datetime', required: true, doc: 'ISO 8601 UTC.' },
  },
  labels: {
    en: {
      one: 'Licence change',
      other: 'Licence changes',
      fields: { licenseId: 'Licence', action: 'Action', snapshot: 'Licence after the change', changedBy: 'Changed by', changedAt: 'Changed' },
      values: { action: { CREATE: 'Created', UPDATE: 'Updated', DELETE: 'Deleted' } },
    },
    tr: {
      one: 'Lisans değişikliği',
      other: 'Lisans değişiklikleri',
      fields: { licenseId: 'Lisans', action: 'İşlem', snapshot: 'Değişiklik sonrası lisans', changedBy: 'Değiştiren', changedAt: 'Değiştirilme' },
      values: { action: { CREATE: 'Oluşturuldu', UPDATE: 'Güncellendi', DELETE: 'Silindi' } },
    },
  },
  list: {
    columns: ['licenseId', 'action', 'changedBy', 'changedAt'],
    filters: ['licenseId', 'action', 'changedBy', 'changedAt'],
  },
});

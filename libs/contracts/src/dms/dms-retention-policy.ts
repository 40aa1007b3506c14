import { defineResource } from '@platform/kit/resource/resource.ts';
import { DmsRetentionPolicyServiceService, DmsRetentionPolicy } from '@platform/kit/gen/platform/dms/v1/dms_retention_policy.ts';

/**
 * How long a tenant keeps the files of a category and/or entity type (docs/interface.md#records, docs/interface.md#files); the
 * retention job (with dms-file) applies the active ones. A category it names cannot be deleted.
 */
export const dmsRetentionPolicy = defineResource<DmsRetentionPolicy>()({
  path: 'dms-retention-policy',
  name: 'DmsRetentionPolicy',
  plural: 'DmsRetentionPolicies',
  service: 'dms',
  menu: { area: 'documents' },
  grpc: DmsRetentionPolicyServiceService,
  encoder: DmsRetentionPolicy,
  operations: 'full',
  fields: {
    policyName: { kind: 'string', required: true, searchable: true, doc: 'Display name.' },
    retentionDays: { kind: 'int', required: true, min: 1, doc: 'Files older than this many days are acted on; at least 1.' },
    categoryId: { kind: 'long', references: 'dms-category', doc: 'Applies to the files of this category (same tenant); empty: any category.' },
    entityType: { kind: 'string', maxLength: 64, doc: 'Applies to the files linked to this entity type; empty: any.' },
    action: { kind: 'enum', values: ['SOFT_DELETE', 'PURGE'], default: 'SOFT_DELETE', doc: 'SOFT_DELETE (default) or PURGE.' },
  },
  form: {
    sections: [
      { title: { en: 'Policy', tr: 'Politika' }, fields: ['policyName', 'status'] },
      { title: { en: 'Applies to', tr: 'Uygulandığı kayıtlar' }, fields: ['categoryId', 'entityType'] },
      { title: { en: 'Rule', tr: 'Kural' }, fields: ['retentionDays', 'action'] },
    ],
  },
  labels: {
    en: {
      one: 'Retention policy',
      other: 'Retention policies',
      fields: { policyName: 'Policy name', retentionDays: 'Kept for (days)', categoryId: 'Category', entityType: 'Linked record type', action: 'Action' },
      values: { action: { SOFT_DELETE: 'Delete (recoverable)', PURGE: 'Purge for good' } },
      help: {
        retentionDays: 'Files older than this many days are acted on.',
        categoryId: 'Left empty, files of any category.',
        entityType: 'Left empty, files linked to any record type.',
      },
    },
    tr: {
      one: 'Saklama kuralı',
      other: 'Saklama kuralları',
      fields: { policyName: 'Kural adı', retentionDays: 'Saklama süresi (gün)', categoryId: 'Kategori', entityType: 'Bağlı kayıt türü', action: 'İşlem' },
      values: { action: { SOFT_DELETE: 'Sil (geri alınabilir)', PURGE: 'Kalıcı olarak yok et' } },
      help: {
        retentionDays: 'Bu kadar günden eski dosyalara işlem uygulanır.',
        categoryId: 'Boş bırakılırsa tüm kategorilerdeki dosyalar.',
        entityType: 'Boş bırakılırsa her kayıt türüne bağlı dosyalar.',
      },
    },
  },
  list: {
    columns: ['policyName', 'retentionDays', 'categoryId', 'entityType', 'action', 'status'],
    filters: ['policyName', 'categoryId', 'action'],
  },
});

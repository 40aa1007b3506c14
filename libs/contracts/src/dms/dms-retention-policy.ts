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
  menu: { area: 'documents', label: { en: 'Retention policies', tr: 'Saklama kuralları' } },
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
  list: {
    columns: ['policyName', 'retentionDays', 'categoryId', 'entityType', 'action', 'status'],
    filters: ['policyName', 'categoryId', 'action'],
  },
});

import { dmsAccountConfig } from './dms-account-config/dms-account-config.resource.ts';
import { dmsAuditLog } from './dms-audit-log/dms-audit-log.resource.ts';
import { dmsCategory } from './dms-category/dms-category.resource.ts';
import { dmsFile } from './dms-file/dms-file.resource.ts';
import { dmsRetentionPolicy } from './dms-retention-policy/dms-retention-policy.resource.ts';
import { dmsShareLink } from './dms-share-link/dms-share-link.resource.ts';

/** The document service's resources; a referenced resource comes before its referrers. */
export const dmsResources = [dmsCategory, dmsFile, dmsRetentionPolicy, dmsAccountConfig, dmsShareLink, dmsAuditLog] as const;

import { dmsAccountConfig } from './dms-account-config.ts';
import { dmsAuditLog } from './dms-audit-log.ts';
import { dmsCategory } from './dms-category.ts';
import { dmsFile } from './dms-file.ts';
import { dmsMatchingRule } from './dms-matching-rule.ts';
import { dmsRetentionPolicy } from './dms-retention-policy.ts';
import { dmsShareLink } from './dms-share-link.ts';

/** The document service's resources; a referenced resource comes before its referrers. */
export const dmsResources = [dmsCategory, dmsFile, dmsRetentionPolicy, dmsMatchingRule, dmsAccountConfig, dmsShareLink, dmsAuditLog] as const;

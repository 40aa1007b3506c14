import { branch } from './branch/branch.resource.ts';
import { businessPartner } from './business-partner/business-partner.resource.ts';

/** The partner-management service's resources; a referenced resource comes before its referrers. */
export const bpmResources = [businessPartner, branch] as const;

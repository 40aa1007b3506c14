import { accrual } from './accrual.ts';
import { branch } from './branch.ts';
import { businessPartner } from './business-partner.ts';
import { contact } from './contact.ts';
import { contractItem } from './contract-item.ts';
import { contract } from './contract.ts';
import { product } from './product.ts';

/** The partner-management service's resources; a referenced resource comes before its referrers. */
export const bpmResources = [businessPartner, branch, contact, product, contract, contractItem, accrual] as const;

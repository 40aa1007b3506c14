import { accrual } from './accrual/accrual.resource.ts';
import { branch } from './branch/branch.resource.ts';
import { businessPartner } from './business-partner/business-partner.resource.ts';
import { contact } from './contact/contact.resource.ts';
import { contractItem } from './contract-item/contract-item.resource.ts';
import { contract } from './contract/contract.resource.ts';
import { product } from './product/product.resource.ts';

/** The partner-management service's resources; a referenced resource comes before its referrers. */
export const bpmResources = [businessPartner, branch, contact, product, contract, contractItem, accrual] as const;

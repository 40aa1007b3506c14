import { account } from './account.ts';
import { city } from './city.ts';
import { corporationContact } from './corporation-contact.ts';
import { country } from './country.ts';
import { currency } from './currency.ts';
import { group } from './group.ts';
import { identityProvider } from './identity-provider.ts';
import { groupMember } from './group-member.ts';
import { groupRole } from './group-role.ts';
import { license } from './license.ts';
import { licenseHistory } from './license-history.ts';
import { roleType } from './role-type.ts';
import { userInfo } from './user-info.ts';
import { userProcess } from './user-process.ts';
import { webhookDelivery } from './webhook-delivery.ts';
import { webhookSubscription } from './webhook-subscription.ts';

/** The core service's resources; a referenced resource comes before its referrers. */
export const coreResources = [
  account,
  userInfo,
  userProcess,
  group,
  groupMember,
  roleType,
  groupRole,
  license,
  licenseHistory,
  country,
  city,
  currency,
  corporationContact,
  webhookSubscription,
  webhookDelivery,
  identityProvider,
] as const;
